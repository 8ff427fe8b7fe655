/** The demo's gateway (scripts/demo/sandbox.ts, flags.ts): its own sandbox keeps its state; --sandbox-url uses another. */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { parseFlags, freePort } from "../../scripts/demo/flags"
import { connectToSandbox, pointWebhooksAt, startDemoSandbox, SANDBOX_STATE, type DemoGateway } from "../../scripts/demo/sandbox"
import { SandboxHarness } from "../support/sandbox"
import { approved } from "./management-helpers"

const dirs: string[] = []
const newDir = () => (dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "pgs-demo-"))), dirs[dirs.length - 1])
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

const harnessOn = (gateway: DemoGateway) =>
  new SandboxHarness({ url: gateway.url, config: gateway.config, context: undefined as never, close: gateway.stop })

describe("npm run demo's --sandbox-url", () => {
  it("takes a running sandbox's URL, without its trailing slash", () => {
    expect(parseFlags(["--sandbox-url", "http://localhost:4010/"]).sandboxUrl).toBe("http://localhost:4010")
    expect(parseFlags([]).sandboxUrl).toBeNull()
  })

  it.each(["localhost:4010", "ftp://gateway.example", "http://localhost:4010/?x=1", undefined])("refuses --sandbox-url %s, naming the flag", (value) => {
    expect(() => parseFlags(value === undefined ? ["--sandbox-url"] : ["--sandbox-url", value])).toThrow(/^--sandbox-url needs the sandbox's http\(s\) URL/)
  })

  it("refuses --sandbox-url with --sandbox-port (that port is the demo's own sandbox's)", () => {
    expect(() => parseFlags(["--sandbox-url", "http://localhost:4010", "--sandbox-port", "4011"])).toThrow(/--sandbox-url and --sandbox-port/)
  })

  it("reads the credentials and keys the store needs from the running sandbox, and says when none answers", async () => {
    const dir = newDir()
    const own = await startDemoSandbox(dir, { port: 0, reset: false, payoutSettleAfterMs: 0 })
    try {
      const connected = await connectToSandbox(own.url)
      expect(connected.config).toMatchObject({ client_id: own.config.client_id, client_secret: own.config.client_secret, merchant_public_key: own.config.merchant_public_key })
    } finally {
      await own.stop()
    }
    const nobody = `http://127.0.0.1:${await freePort(0)}`
    await expect(connectToSandbox(nobody)).rejects.toThrow(`--sandbox-url ${nobody}: no sandbox answered at ${nobody}/_sandbox/config`)
  })
})

describe("the demo's own sandbox", () => {
  it("keeps its payments, keys and credentials in .demo/sandbox-state across restarts, and --reset empties them", async () => {
    const dir = newDir()
    const start = (reset: boolean) => startDemoSandbox(dir, { port: 0, reset, payoutSettleAfterMs: 0 })
    const first = await start(false)
    const tx = await approved(harnessOn(first), "AUTHORIZE", 2_500).finally(() => first.stop())
    expect(fs.existsSync(path.join(dir, SANDBOX_STATE, "sandbox-state.json"))).toBe(true)

    const second = await start(false)
    try {
      expect(second.config.client_secret).toBe(first.config.client_secret)
      expect(second.config.webhook_public_key).toBe(first.config.webhook_public_key)
      expect(second.description).toContain("1 transaction kept")
      const status = await harnessOn(second).api("GET", `/api/transactions/${tx.id}/status`)
      expect(status.body.transaction).toMatchObject({ id: tx.id, status: "APPROVED", amount: 2_500 })
    } finally {
      await second.stop()
    }

    const reset = await start(true)
    try {
      expect(reset.description).toContain("0 transactions kept")
      expect(reset.config.client_secret).not.toBe(first.config.client_secret)
    } finally {
      await reset.stop()
    }
  })
})

describe("the demo's webhook URL", () => {
  it("is the only one the gateway sends to after a restart on another port, though the sandbox keeps what was registered", async () => {
    const dir = newDir()
    const start = () => startDemoSandbox(dir, { port: 0, reset: false, payoutSettleAfterMs: 0 })
    const endpoints = async (gateway: DemoGateway) => ((await (await fetch(`${gateway.url}/_sandbox/webhooks`)).json()) as { endpoints: string[] }).endpoints
    const first = await start()
    try {
      await pointWebhooksAt(first, "http://127.0.0.1:9101/hooks/pgs/webhooks")
      await pointWebhooksAt(first, "http://127.0.0.1:9101/hooks/pgs/webhooks")
      expect(await endpoints(first)).toEqual(["http://127.0.0.1:9101/hooks/pgs/webhooks"])
    } finally {
      await first.stop()
    }
    const second = await start()
    try {
      expect(await endpoints(second)).toEqual(["http://127.0.0.1:9101/hooks/pgs/webhooks"]) // kept in its state
      await pointWebhooksAt(second, "http://127.0.0.1:9202/hooks/pgs/webhooks")
      expect(await endpoints(second)).toEqual(["http://127.0.0.1:9202/hooks/pgs/webhooks"])
    } finally {
      await second.stop()
    }
  })
})
