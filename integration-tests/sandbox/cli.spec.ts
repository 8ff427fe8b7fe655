import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { request } from "undici"
import { freePort } from "../../scripts/demo/flags"
// The parser Medusa's loadEnv uses for a store's .env.
import dotenv from "dotenv"

const BIN = path.join(__dirname, "../../bin/medusa-payment-pgs.js")

type Running = { child: ChildProcess; url: string; output: () => string }

/** Starts `medusa-payment-pgs sandbox ARGS` and waits (30 s at most) for its base URL. */
async function startCli(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [BIN, "sandbox", ...args], { stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  child.stderr!.on("data", (c) => (out += c))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000)
    child.stdout!.on("data", (chunk) => {
      out += chunk
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)))
  })
  return { child, url, output: () => out }
}

async function stop(running: Running) {
  const exited = new Promise((r) => running.child.on("exit", r))
  running.child.kill("SIGTERM")
  await exited
}


type Config = Record<string, string> & { terminals: unknown[] }
const configOf = async (url: string) => (await (await request(`${url}/_sandbox/config`)).body.json()) as Config

describe("the sandbox command", () => {
  it("starts on a free port with --port 0, prints its base URL and serves its config (--settle-payouts-after in seconds)", async () => {
    const sandbox = await startCli(["--port", "0", "--settle-payouts-after", "2.5"])
    try {
      const config = (await (await request(`${sandbox.url}/_sandbox/config`)).body.json()) as { base_url: string; test_cards: unknown[]; settings: Record<string, unknown> }
      expect(config.base_url).toBe(sandbox.url)
      expect(config.test_cards).toHaveLength(10)
      expect(config.settings.payout_settle_after_ms).toBe(2500)
    } finally {
      await stop(sandbox)
    }
  })

  it("lists every command and every sandbox flag under --help (and with no command at all)", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], { stdio: ["ignore", "pipe", "pipe"] })
        let out = ""
        child.stdout!.on("data", (c) => (out += c))
        child.stderr!.on("data", (c) => (out += c))
        child.on("exit", (code) => resolve({ code, out }))
      })
    const help = await run(["--help"])
    expect(help.code).toBe(0)
    // Every option the sandbox command parses (read from its source, so a new flag without help fails here).
    const source = fs.readFileSync(path.join(__dirname, "../../sandbox/cli.ts"), "utf8")
    const parsed = source.match(/options: \{([\s\S]*?)\n {4}\},/)![1]
    const flags = [...parsed.matchAll(/^\s+"?([\w-]+)"?: \{ type/gm)].map((m) => m[1])
    expect(flags.length).toBeGreaterThan(15)
    for (const flag of flags) expect(help.out).toContain(`--${flag}`)
    expect(help.out).toMatch(/Commands:\n\s+sandbox/)
    expect((await run([])).out).toBe(help.out)
    const unknown = await run(["sandbox-please"])
    expect(unknown.code).toBe(1)
    expect(unknown.out).toMatch(/^Unknown command "sandbox-please"/)
  })

  it("explains a bad option and exits non-zero", async () => {
    await expect(startCli(["--event-names", "loud"])).rejects.toThrow(/exited with 1: [\s\S]*--event-names must be one of specific, generic/)
  })
})

describe("the sandbox command with --write-env", () => {
  let dir: string
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-env-file-"))))
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("writes every PGS_* variable the store needs, PEMs included, keeping the file's other lines", async () => {
    const envFile = path.join(dir, ".env")
    const oldPem = "-----BEGIN PUBLIC KEY-----\nold\n-----END PUBLIC KEY-----"
    fs.writeFileSync(envFile, `# my store\nDATABASE_URL=postgres://localhost/shop\nPGS_CLIENT_SECRET=stale\nPGS_WEBHOOK_PUBLIC_KEY="${oldPem}"\nSTORE_CORS=http://localhost:8000\n`)
    const sandbox = await startCli(["--write-env", envFile, "--port", "0"])
    try {
      const config = await configOf(sandbox.url)
      const env = dotenv.parse(fs.readFileSync(envFile))
      expect(env).toMatchObject({
        DATABASE_URL: "postgres://localhost/shop",
        STORE_CORS: "http://localhost:8000",
        PGS_API_URL: config.base_url,
        PGS_AUTH_URL: config.auth_url,
        PGS_REALM: "uat",
        PGS_CLIENT_ID: config.client_id,
        PGS_CLIENT_SECRET: config.client_secret,
        PGS_CLIENT_KEY: config.client_key,
        PGS_MERCHANT_PUBLIC_KEY: config.merchant_public_key,
        PGS_WEBHOOK_PUBLIC_KEY: config.webhook_public_key,
        PGS_TERMINAL_ID: "SBX-ALL-001",
        PGS_PAYOUT_TERMINAL_ID: "SBX-PAYOUT-01",
        PGS_STORE_URL: "http://localhost:8000",
        PGS_BACKEND_URL: "http://localhost:9000",
      })
      const text = fs.readFileSync(envFile, "utf8")
      expect(text.startsWith("# my store\nDATABASE_URL=postgres://localhost/shop\n")).toBe(true)
      expect(text).not.toContain("stale")
      expect(text).not.toContain("old\n")
      // Each variable once; a PEM on one line.
      expect(text.match(/^PGS_WEBHOOK_PUBLIC_KEY=/gm)).toHaveLength(1)
      expect(text).toMatch(/^PGS_MERCHANT_PUBLIC_KEY="-----BEGIN PUBLIC KEY-----\\n[^\n]+-----END PUBLIC KEY-----\\n"$/m)
      // Webhooks go to the store the file describes.
      const endpoints = (await (await request(`${sandbox.url}/_sandbox/webhooks`)).body.json()) as unknown
      expect(JSON.stringify(endpoints)).toContain("http://localhost:9000/hooks/pgs/webhooks")
    } finally {
      await stop(sandbox)
    }
  })

  it("starts a missing .env from the starter's .env.template beside it, then adds its own lines", async () => {
    const envFile = path.join(dir, ".env")
    fs.writeFileSync(path.join(dir, ".env.template"), "STORE_CORS=http://localhost:8000\nDATABASE_URL=postgres://postgres@localhost/$DB_NAME\n", { mode: 0o644 })
    const sandbox = await startCli(["--write-env", envFile, "--port", "0"])
    try {
      const text = fs.readFileSync(envFile, "utf8")
      expect(text.startsWith("STORE_CORS=http://localhost:8000\nDATABASE_URL=postgres://postgres@localhost/$DB_NAME\n")).toBe(true)
      expect(dotenv.parse(text)).toMatchObject({ PGS_CLIENT_ID: (await configOf(sandbox.url)).client_id, PGS_TERMINAL_ID: "SBX-ALL-001" })
      expect(sandbox.output()).toContain(`Started ${envFile} from ${envFile}.template`)
      // It holds secrets now: its owner's alone, whatever the template's mode.
      expect(fs.statSync(envFile).mode & 0o777).toBe(0o600)
      // The template itself is left as the starter ships it.
      expect(fs.readFileSync(path.join(dir, ".env.template"), "utf8")).not.toContain("PGS_")
    } finally {
      await stop(sandbox)
    }
  })

  it("writes a .env whose folder is not there yet, its keys kept elsewhere (--keys-dir)", async () => {
    const envFile = path.join(dir, "apps", "backend", ".env")
    const sandbox = await startCli(["--write-env", envFile, "--keys-dir", path.join(dir, "keys"), "--port", "0"])
    try {
      expect(dotenv.parse(fs.readFileSync(envFile)).PGS_CLIENT_ID).toBe((await configOf(sandbox.url)).client_id)
      expect(fs.existsSync(path.join(dir, "keys", "credentials.json"))).toBe(true)
    } finally {
      await stop(sandbox)
    }
  })

  it("keeps the keys, client id, secret and client key across restarts, so the .env stays valid", async () => {
    const envFile = path.join(dir, ".env")
    const port = String(await freePort(0))
    const first = await startCli(["--write-env", envFile, "--port", port])
    const before = await configOf(first.url)
    await stop(first)
    const written = fs.readFileSync(envFile, "utf8")

    const second = await startCli(["--write-env", envFile, "--port", port])
    try {
      const after = await configOf(second.url)
      for (const key of ["client_id", "client_secret", "client_key", "merchant_public_key", "webhook_public_key"]) {
        expect(after[key]).toBe(before[key])
      }
      expect(fs.readFileSync(envFile, "utf8")).toBe(written)
      expect(second.output()).toContain("is up to date")
      expect(fs.existsSync(path.join(dir, ".pgs-sandbox", "credentials.json"))).toBe(true)
    } finally {
      await stop(second)
    }
  })

  it("writes the backend and storefront URLs given with --backend-url and --store-url (a store on other ports)", async () => {
    const envFile = path.join(dir, ".env")
    fs.writeFileSync(envFile, "PGS_BACKEND_URL=http://localhost:9000\n")
    const sandbox = await startCli(["--write-env", envFile, "--port", "0", "--backend-url", "http://localhost:9100/", "--store-url", "http://localhost:3100"])
    try {
      const env = dotenv.parse(fs.readFileSync(envFile))
      expect(env.PGS_BACKEND_URL).toBe("http://localhost:9100")
      expect(env.PGS_STORE_URL).toBe("http://localhost:3100")
      // Printed right after the URL: polled, not assumed.
      const deadline = Date.now() + 10_000
      while (!sandbox.output().includes("webhooks:") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
      expect(sandbox.output()).toContain("webhooks:   http://localhost:9100/hooks/pgs/webhooks")
    } finally {
      await stop(sandbox)
    }
  })

  it("refuses a backend URL that is not http(s), and the URL flags without --write-env", async () => {
    await expect(startCli(["--write-env", path.join(dir, ".env"), "--port", "0", "--backend-url", "localhost:9000"])).rejects.toThrow(/--backend-url must be an http\(s\) URL/)
    await expect(startCli(["--port", "0", "--store-url", "http://localhost:3100"])).rejects.toThrow(/go with --write-env FILE/)
  })

  it("refuses a realm the gateway does not have", async () => {
    await expect(startCli(["--realm", "staging", "--port", "0"])).rejects.toThrow(/--realm must be one of uat, production, got "staging"/)
  })
})
