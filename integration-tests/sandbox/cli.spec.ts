import { spawn } from "node:child_process"
import path from "node:path"
import { request } from "undici"

const BIN = path.join(__dirname, "../../bin/medusa-payment-pgs.js")

describe("the sandbox command", () => {
  it("starts on a free port with --port 0, prints its base URL and serves its config (--settle-payouts-after in seconds)", async () => {
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0", "--settle-payouts-after", "2.5"], { stdio: ["ignore", "pipe", "pipe"] })
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ""
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 30_000)
        child.stdout.on("data", (chunk) => {
          out += chunk
          const m = /listening on (http:\/\/\S+)/.exec(out)
          if (m) {
            clearTimeout(timer)
            resolve(m[1])
          }
        })
        child.on("exit", (code) => reject(new Error(`exited with ${code}: ${out}`)))
      })
      const res = await request(`${url}/_sandbox/config`)
      const config = (await res.body.json()) as { base_url: string; test_cards: unknown[]; settings: Record<string, unknown> }
      expect(config.base_url).toBe(url)
      expect(config.test_cards).toHaveLength(10)
      expect(config.settings.payout_settle_after_ms).toBe(2500)
    } finally {
      child.kill("SIGTERM")
    }
  })

  it("explains a bad option and exits non-zero", async () => {
    const child = spawn(process.execPath, [BIN, "sandbox", "--event-names", "loud"], { stdio: ["ignore", "pipe", "pipe"] })
    let err = ""
    child.stderr.on("data", (c) => (err += c))
    const code = await new Promise((r) => child.on("exit", r))
    expect(code).toBe(1)
    expect(err).toContain("--event-names must be one of specific, generic")
  })
})
