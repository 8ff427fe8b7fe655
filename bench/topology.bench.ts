/**
 * `npm run bench:topology`: the same checkouts and the same webhook burst against one Medusa process (server and
 * jobs in one, MEDUSA_WORKER_MODE=shared, in-memory event bus, workflow engine and locks: the baseline) and
 * against the production topology (two servers and a worker, everything shared through Redis), in one run, on
 * one database and one gateway (the sandbox). Both go through the same round-robin balancer, so its cost is in
 * both. On a 2-core machine the point is that the figures stay correct under real concurrency and what going
 * through Redis costs, not a speed-up (three Node processes share two cores). Last line: one JSON object.
 *   1. CHECKOUTS cart completions (cart, payment session paying by wallet, complete), 4 at a time;
 *   2. 1,000 distinct signed webhooks and 200 duplicates at concurrency 50 from a worker thread, to the servers'
 *      dedicated receivers: acknowledgement times, and the time until every one is applied (each exactly once).
 */
import { Worker } from "node:worker_threads"
import path from "node:path"
import { percentile, round, runLoad } from "./support"
import { topologySuite, waitFor, type TopologySuite } from "../integration-tests/topology/support/store"
import { burstState, shopperWithGatewayCustomer, tokenizationBurst } from "../integration-tests/topology/support/bursts"

const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 60)
const CHECKOUT_CONCURRENCY = 4
const DISTINCT_WEBHOOKS = 1000
const DUPLICATE_WEBHOOKS = 200
const WEBHOOK_CONCURRENCY = 50

type SendJob = { origin: string; path: string; sends: Array<{ body: string; authorization: string }>; concurrency: number }
type SendResult = { acks: number[]; non2xx: number }

/** The gateway's side in its own thread, as in bench:checkout. */
function inWorker(job: SendJob): Promise<SendResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, "webhook-sender.js"), { workerData: job })
    worker.once("message", (result: SendResult) => {
      resolve(result)
      void worker.terminate()
    })
    worker.once("error", reject)
  })
}

async function measure(s: TopologySuite, tag: string) {
  // Warm-up: a few checkouts, so both layouts are measured past their first requests.
  const checkout = async () => {
    const cart = await s.readyCart()
    const started = performance.now()
    const done = await s.store().post(`/store/carts/${cart.cartId}/complete`)
    if (done.body?.type !== "order") throw new Error(`${tag}: no order (${JSON.stringify(done.body).slice(0, 200)})`)
    return performance.now() - started
  }
  for (let i = 0; i < 4; i++) await checkout()
  const completeMs: number[] = []
  const load = await runLoad(CHECKOUTS, CHECKOUT_CONCURRENCY, async () => void completeMs.push(await checkout()))
  completeMs.sort((a, b) => a - b)

  const shopper = await shopperWithGatewayCustomer(s)
  const sends = await tokenizationBurst(s, shopper, `bench${tag}`, DISTINCT_WEBHOOKS, DUPLICATE_WEBHOOKS)
  const target = new URL(s.topology.webhookUrl)
  const started = performance.now()
  const { acks, non2xx } = await inWorker({ origin: target.origin, path: target.pathname, sends, concurrency: WEBHOOK_CONCURRENCY })
  const ackedMs = performance.now() - started
  const state = await waitFor(
    async () => {
      const now = await burstState(s, `bench${tag}`)
      return now.processed >= DISTINCT_WEBHOOKS ? now : null
    },
    { timeoutMs: 600_000, intervalMs: 200, what: `${tag}: every webhook applied` },
  )
  const appliedMs = performance.now() - started
  acks.sort((a, b) => a - b)
  return {
    processes: s.topology.processes.map((p) => p.name),
    checkouts: CHECKOUTS,
    checkout_concurrency: CHECKOUT_CONCURRENCY,
    complete_p50_ms: round(percentile(completeMs, 50), 1),
    complete_p95_ms: round(percentile(completeMs, 95), 1),
    checkouts_per_s: round(load.rps, 2),
    webhooks_sent: sends.length,
    webhook_ack_p50_ms: round(percentile(acks, 50), 1),
    webhook_ack_p99_ms: round(percentile(acks, 99), 1),
    webhooks_acked_after_ms: round(ackedMs, 0),
    webhooks_non_2xx: non2xx,
    webhooks_recorded: state.recorded,
    webhooks_applied: state.applied,
    cards_saved: state.cards,
    webhooks_all_applied_after_ms: round(appliedMs, 0),
  }
}

topologySuite(
  "topology benchmark",
  (s) => {
    it("measures one process against two servers and a worker through Redis", async () => {
      await s.use({ servers: 1, workers: 0 })
      const one = await measure(s, "one")
      await s.use({ servers: 2, workers: 1 })
      const topology = await measure(s, "topology")
      const summary = {
        bench: "topology",
        cores: require("node:os").availableParallelism(),
        one_process: one,
        two_servers_one_worker_redis: topology,
        complete_p50_ratio: round(topology.complete_p50_ms / one.complete_p50_ms),
        webhooks_all_applied_ratio: round(topology.webhooks_all_applied_after_ms / one.webhooks_all_applied_after_ms),
      }
      process.stdout.write(
        `topology: complete p50 ${one.complete_p50_ms} ms (one process) vs ${topology.complete_p50_ms} ms (2 servers + worker); ` +
          `1,200 webhooks all applied after ${one.webhooks_all_applied_after_ms} ms vs ${topology.webhooks_all_applied_after_ms} ms\n`,
      )
      process.stdout.write(`${JSON.stringify(summary)}\n`)
      for (const run of [one, topology]) {
        expect(run.webhooks_non_2xx).toBe(0)
        expect(run.webhooks_recorded).toBe(DISTINCT_WEBHOOKS)
        expect(run.webhooks_applied).toBe(DISTINCT_WEBHOOKS)
        expect(run.cards_saved).toBe(DISTINCT_WEBHOOKS)
      }
    }, 1_800_000)
  },
  { layout: null },
)
