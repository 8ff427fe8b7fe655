/**
 * `npm run bench:sandbox`: is the sandbox fast enough never to be a benchmark's bottleneck?
 * Authenticated status reads (hygiene + bearer check + routing + JSON) against the sandbox, and the same load
 * against a bare node:http server answering a fixed JSON body (the baseline). Each server runs in its own
 * process; the load comes from this one, at concurrency 32. Last line: one JSON object.
 */
import { spawn } from "node:child_process"
import { Pool, request } from "undici"
import { percentile, round, runLoad, startSandboxProcess } from "./support"

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 5000)
const CONCURRENCY = 32

const BARE_SERVER = `require("node:http").createServer((q, s) => s.writeHead(200, {"content-type":"application/json"})
  .end('{"found":false,"transaction":null}')).listen(0, "127.0.0.1", function () { console.log("listening on http://127.0.0.1:" + this.address().port) })`

async function startBareServer() {
  const child = spawn(process.execPath, ["-e", BARE_SERVER], { stdio: ["ignore", "pipe", "inherit"] })
  const url = await new Promise<string>((resolve) => child.stdout!.on("data", (c) => resolve(/(http:\/\/\S+)/.exec(String(c))![1])))
  return { url, stop: () => child.kill("SIGTERM") }
}

async function measure(origin: string, headers: Record<string, string>) {
  const pool = new Pool(origin, { connections: CONCURRENCY })
  const call = async () => {
    const res = await pool.request({ method: "GET", path: "/api/transactions/trx_missing/status", headers })
    await res.body.text()
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}`)
  }
  await runLoad(500, CONCURRENCY, call) // warm-up
  const result = await runLoad(TOTAL, CONCURRENCY, call)
  await pool.close()
  return result
}

async function main() {
  const sandbox = await startSandboxProcess()
  const config = (await (await request(`${sandbox.url}/_sandbox/config`)).body.json()) as any
  const tokenRes = await request(config.token_url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "bench" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: config.client_id, client_secret: config.client_secret }).toString(),
  })
  const { access_token } = (await tokenRes.body.json()) as { access_token: string }
  const headers = { authorization: `Bearer ${access_token}`, "user-agent": "bench", "content-type": "application/json" }

  const sbx = await measure(sandbox.url, headers)
  sandbox.stop()
  const bare = await startBareServer()
  const baseline = await measure(bare.url, headers)
  bare.stop()

  const line = (name: string, r: typeof sbx) =>
    console.log(`${name}: ${round(r.rps, 0)} req/s, p50 ${round(percentile(r.latencies, 50))} ms, p99 ${round(percentile(r.latencies, 99))} ms`)
  line("sandbox ", sbx)
  line("baseline", baseline)
  console.log(
    JSON.stringify({
      bench: "sandbox",
      requests: TOTAL,
      concurrency: CONCURRENCY,
      sandbox_rps: round(sbx.rps, 0),
      baseline_rps: round(baseline.rps, 0),
      rps_ratio: round(sbx.rps / baseline.rps),
      sandbox_p99_ms: round(percentile(sbx.latencies, 99)),
    }),
  )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
