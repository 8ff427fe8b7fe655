/**
 * The gateway's side of the webhook burst: POST each signed body with `concurrency` requests in flight and time
 * each until its answer. Run in a worker thread so the sender's own work does not share the store's event loop
 * (the gateway is another machine); plain JavaScript because worker threads do not go through jest's transform.
 */
const { parentPort, workerData, isMainThread } = require("node:worker_threads")
const { Pool } = require("undici")

async function sendAll({ origin, path, sends, concurrency }) {
  const pool = new Pool(origin, { connections: concurrency })
  const acks = []
  // The endpoint's Server-Timing per answer (stage durations inside the receiver), aligned with `acks`.
  const timings = []
  let next = 0
  let non2xx = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sends.length) {
        const { body, authorization } = sends[next++]
        const started = performance.now()
        const res = await pool.request({ method: "POST", path, headers: { "content-type": "application/json", authorization }, body })
        await res.body.text()
        acks.push(performance.now() - started)
        timings.push(res.headers["server-timing"] ?? null)
        if (res.statusCode < 200 || res.statusCode >= 300) non2xx++
      }
    }),
  )
  await pool.close()
  return { acks, non2xx, timings }
}

if (!isMainThread && workerData && workerData.sends) sendAll(workerData).then((result) => parentPort.postMessage(result))

module.exports = { sendAll }
