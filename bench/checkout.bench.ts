/**
 * `npm run bench:checkout`, on one running store:
 * 1. cart completions through pp_pgs_pgs (Direct API with a saved card, frictionless: no browser needed) and through
 *    Medusa's pp_system_default, interleaved; each timed from payment session to order (initiate + complete);
 * 2. 1,000 distinct signed webhooks (tokenization events) plus 200 duplicates of them at concurrency 50, sent from
 *    a worker thread (the gateway's side; BENCH_SENDER=inline sends from the store's own event loop) to the
 *    dedicated webhook receiver (option webhookReceiver): the time until it acknowledges, how many distinct events
 *    were applied (each must be applied once) and how long until all were; `burst` says where the main thread's
 *    time went (event loop, GC, CPU share, database pool). Baselines in the same run: the same burst to the Medusa
 *    route (`medusa_route`) and to a server that only answers (`answer_only_server`: the measurement's own cost).
 * The last line of stdout is one JSON object.
 */
import { Worker } from "node:worker_threads"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { percentile, round } from "./support"
import { startProbes } from "./probes"
import { pgsStoreSuite, PGS_PROVIDER_ID, SYSTEM_PROVIDER_ID } from "../integration-tests/http/support/store"
import { BROWSER_INFO } from "../integration-tests/http/support/checkout"
import { walletPayment } from "../integration-tests/http/support/checkout-direct"
import { waitFor } from "../integration-tests/support/sandbox"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { receiverUrl } from "../integration-tests/http/support/webhooks"
import { ackRatio, ackStages } from "./webhook-stages"
import { startCostMeter, UNCOUNTED, type CheckoutCost } from "./checkout-costs"
import { checkoutCosts, costTable } from "./checkout-split"
import { startSandboxHarnessProcess } from "./sandbox-process"
import { profileCheckouts } from "./checkout-profile"
import { sessionFields } from "../integration-tests/support/session-fields"

const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 200)
const DISTINCT_WEBHOOKS = 1000
const DUPLICATE_WEBHOOKS = 200
const WEBHOOK_CONCURRENCY = 50
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sendAll } = require("./webhook-sender") as { sendAll(job: SendJob): Promise<SendResult> }

type SendJob = { origin: string; path: string; sends: Array<{ body: string; authorization: string }>; concurrency: number }
type SendResult = { acks: number[]; non2xx: number; timings: Array<string | null> }

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

pgsStoreSuite("checkout benchmark", (s) => {
  it("measures checkouts and webhook acknowledgements", async () => {
    // A logged-in shopper with a saved card (a first payment that saves it; the tokenization webhook stores it).
    const { token, customer } = await s.registerCustomer()
    const first = await s.createCart({ customerToken: token })
    const saving = await s.initiatePaymentSession(
      first.id,
      PGS_PROVIDER_ID,
      { payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")), browser_info: BROWSER_INFO, save_card: true },
      token,
    )
    if ((await s.completeCart(first.id, token)).data.type !== "order") throw new Error("the first checkout did not place an order")
    const payment = s.container().resolve<any>("payment")
    const [card] = await waitFor(
      async () => {
        const list = await payment.listPaymentMethods({ provider_id: PGS_PROVIDER_ID, context: { customer: { id: customer.id } } })
        return list.length ? list : null
      },
      { what: "the saved card", timeoutMs: 30_000 },
    )
    // As the store keeps it: its store answers leave the gateway's customer id out.
    const gatewayCustomerId: string = sessionFields((await payment.retrievePaymentSession(saving.id)).data).gateway_customer_id

    // Each checkout is one window of the meter: its wall time, gateway calls (with the sandbox's own handling time
    // and the round trips) and database queries. The gateway's webhook about it is held while the shopper waits
    // (the sandbox's `webhooks_held`: a gateway whose queue sends it a moment later) and released after, in a window
    // of its own: the approval webhook's work is counted apart (`approval_webhook_*`), never in the next checkout's
    // window nor in this one's.
    const meter = startCostMeter(s.sandbox.url)
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const holdWebhooks = (held: boolean) => s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: held })
    const settled = (since: Date) =>
      waitFor(
        async () => {
          const { rows } = await knex.raw(
            `select count(*) filter (where processed_at is null) as open, count(*) filter (where received_at >= ?) as new from pgs_webhook_event ${UNCOUNTED}`,
            [since],
          )
          return Number(rows[0].open) === 0 && Number(rows[0].new) > 0
        },
        { what: "the checkout's webhook processed", timeoutMs: 30_000, intervalMs: 5 },
      )
    const approvals: CheckoutCost[] = []
    const checkout = async (providerId: string): Promise<CheckoutCost> => {
      const cart = await s.createCart({ customerToken: token })
      const data = providerId === PGS_PROVIDER_ID ? { payment_method: { type: "saved_card", saved_card_id: card.id }, browser_info: BROWSER_INFO } : undefined
      const since = new Date()
      let done: Awaited<ReturnType<typeof s.completeCart>> | undefined
      const cost = await meter.measure(async () => {
        await s.initiatePaymentSession(cart.id, providerId, data, token)
        done = await s.completeCart(cart.id, token)
      })
      if (done?.data.type !== "order") throw new Error(`${providerId}: no order (${JSON.stringify(done?.data.error ?? done?.data).slice(0, 200)})`)
      if (providerId === PGS_PROVIDER_ID && !process.env.BENCH_PROFILE) {
        // The bench's polling is marked UNCOUNTED in the queries; its time (the release call, a poll every 5 ms) and
        // its CPU (a fraction of a millisecond a poll) stay in the window.
        approvals.push(await meter.measure(async () => {
          await holdWebhooks(false)
          await settled(since)
        }))
        await holdWebhooks(true)
      }
      return cost
    }
    await holdWebhooks(true)
    // BENCH_PROFILE=<dir>: CPU profiles of each provider's checkouts instead of the figures (where the time goes).
    if (process.env.BENCH_PROFILE) {
      await profileCheckouts(process.env.BENCH_PROFILE, [PGS_PROVIDER_ID, SYSTEM_PROVIDER_ID], checkout)
      meter.stop()
      await holdWebhooks(false)
      return
    }
    const pgs: CheckoutCost[] = []
    const system: CheckoutCost[] = []
    for (let i = 0; i < 10; i++) await checkout(i % 2 ? PGS_PROVIDER_ID : SYSTEM_PROVIDER_ID) // warm-up
    approvals.length = 0 // the warm-up's approvals are not counted either
    for (let i = 0; i < CHECKOUTS; i++) {
      pgs.push(await checkout(PGS_PROVIDER_ID))
      system.push(await checkout(SYSTEM_PROVIDER_ID))
    }
    meter.stop()
    await holdWebhooks(false)
    const costs = checkoutCosts(pgs, system, approvals)

    // Webhooks: tokenization events for this shopper's gateway customer, signed with the sandbox's webhook key, sent
    // to the dedicated receiver (option webhookReceiver; the endpoint the goal is for) and then, as the baseline in
    // the same run, to the Medusa route — each burst once the previous one's events are all applied.
    const sign = (body: string) => s.sandbox.signWebhook(body)
    const signedBurst = async (tag: string, distinct: number, duplicates: number) => {
      const bodies = Array.from({ length: distinct }, (_, i) =>
        JSON.stringify({
          event: "tokenization-webhook:payment-method:tokenized",
          payload: {
            payment_method: {
              id: `pm_bench_${tag}_${i}_${Date.now().toString(36)}`,
              type: "card",
              card: { brand: "VISA", last_4: String(1000 + (i % 9000)).slice(-4), bin: "400000", masked: "400000******1000", exp_month: 12, exp_year: 2031 },
            },
            transaction_id: null,
            customer: { id: gatewayCustomerId, first_name: "Grace", last_name: "Hopper", email: customer.email },
            merchant_id: s.sandbox.config.merchant_id,
            created_at: new Date().toISOString(),
          },
        }),
      )
      const signed = await Promise.all(bodies.map(async (body) => ({ body, authorization: `Bearer ${await sign(body)}` })))
      return [...signed, ...Array.from({ length: duplicates }, (_, i) => signed[(i * 7) % distinct])]
    }
    const send = (url: string, sends: SendJob["sends"]) => {
      const target = new URL(url)
      const job = { origin: target.origin, path: target.pathname, sends, concurrency: WEBHOOK_CONCURRENCY }
      return process.env.BENCH_SENDER === "inline" ? sendAll(job) : inWorker(job)
    }
    // Only one burst's events (the first checkout's real tokenization event is not one of them).
    const eventsOf = (tag: string) => knex("pgs_webhook_event").where("subject_id", "like", `pm_bench_${tag}_%`)
    const appliedCount = async (tag: string) => Number((await eventsOf(tag).where("outcome", "applied:card_saved").count({ n: "*" }))[0].n)
    const allApplied = async (tag: string, n: number) => {
      let applied = 0
      try {
        await waitFor(async () => (applied = await appliedCount(tag)) >= n, { timeoutMs: 300_000, intervalMs: 200, what: `every ${tag} webhook applied` })
      } catch {
        applied = await appliedCount(tag)
      }
      return applied
    }
    const WARMUP = 100
    // This process's CPU (the sender's thread and the receiving side's, not PostgreSQL's) per delivery of a burst.
    const withCpuPerDelivery = <T extends { ms: number; process_cpu_share: number }>(load: T, deliveries: number) => ({
      ...load,
      cpu_ms_per_delivery: round((load.ms * load.process_cpu_share) / deliveries, 3),
    })
    const ackPercentiles = (acks: number[]) => {
      acks.sort((a, b) => a - b)
      return { ack_p50_ms: round(percentile(acks, 50), 1), ack_p99_ms: round(percentile(acks, 99), 1) }
    }
    const burst = async (url: string, tag: string) => {
      // Warm-up, as an endpoint that has been up a while has had (not counted; processed before the burst starts).
      await send(url, await signedBurst(`warmup${tag}`, WARMUP, 0))
      await allApplied(`warmup${tag}`, WARMUP)
      const sends = await signedBurst(tag, DISTINCT_WEBHOOKS, DUPLICATE_WEBHOOKS)
      const probes = startProbes(knex)
      const started = performance.now()
      const { acks, non2xx, timings } = await send(url, sends)
      const load = withCpuPerDelivery({ ms: round(performance.now() - started, 0), ...probes.stop() }, sends.length)
      const stages = ackStages(acks, timings)
      const applied = await allApplied(tag, DISTINCT_WEBHOOKS)
      return {
        sent: sends.length,
        ...ackPercentiles(acks),
        recorded: Number((await eventsOf(tag).count({ n: "*" }))[0].n),
        non_2xx: non2xx,
        applied,
        all_applied_after_ms: round(performance.now() - started, 0),
        burst: load,
        // Inside the endpoint (its Server-Timing) and outside it, per acknowledgement; null where there is none.
        stages,
      }
    }
    // The floor of this measurement on this machine: the same sender and bodies against a server that only answers.
    const floor = async () => {
      const server = createServer((req, res) => req.resume().on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}')))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pgs/webhooks`
      const sends = await signedBurst("floor", DISTINCT_WEBHOOKS, DUPLICATE_WEBHOOKS)
      await send(url, sends.slice(0, WARMUP))
      const probes = startProbes(knex)
      const started = performance.now()
      const { acks } = await send(url, sends)
      const load = withCpuPerDelivery({ ms: round(performance.now() - started, 0), ...probes.stop() }, sends.length)
      server.close()
      return { ...ackPercentiles(acks), cpu_ms_per_delivery: load.cpu_ms_per_delivery }
    }
    const receiver = await burst(receiverUrl(s), "receiver")
    const route = await burst(s.webhookUrl, "route")
    const answerOnly = await floor()

    const summary = {
      bench: "checkout",
      checkouts_per_provider: CHECKOUTS,
      ...costs,
      webhook_endpoint: "receiver",
      webhook_ack_p50_ms: receiver.ack_p50_ms,
      webhook_ack_p99_ms: receiver.ack_p99_ms,
      ...ackRatio(receiver.ack_p99_ms, answerOnly.ack_p99_ms),
      webhook_stages: receiver.stages,
      webhooks_sent: receiver.sent,
      webhooks_distinct: DISTINCT_WEBHOOKS,
      webhooks_recorded: receiver.recorded,
      webhooks_non_2xx: receiver.non_2xx,
      webhooks_applied: receiver.applied,
      webhooks_all_applied_after_ms: receiver.all_applied_after_ms,
      burst: receiver.burst,
      // The same burst through Medusa's own HTTP stack (POST /hooks/pgs/webhooks), for comparison.
      medusa_route: route,
      // The sender against an HTTP server that answers without doing anything: what the measurement itself costs here.
      answer_only_server: answerOnly,
    }
    // Straight to stdout (jest writes its own report to stderr), so this is the last line.
    process.stdout.write(costTable(costs))
    process.stdout.write(`checkout: pgs p50 ${summary.pgs_p50_ms} ms vs system p50 ${summary.system_p50_ms} ms; webhook ack (receiver) p50 ${receiver.ack_p50_ms} ms, p99 ${receiver.ack_p99_ms} ms; (Medusa route) p50 ${route.ack_p50_ms} ms, p99 ${route.ack_p99_ms} ms\n`)
    const st = receiver.stages
    if (st) process.stdout.write(`webhook ack (receiver) stages p50/p99 ms: read ${st.read.p50}/${st.read.p99}, verify ${st.verify.p50}/${st.verify.p99}, record ${st.record.p50}/${st.record.p99}, outside the receiver ${st.outside.p50}/${st.outside.p99}; p99 ${summary.ack_p99_ratio_to_answer_only}× the answer-only server's (goal ≤ ${summary.ack_p99_ratio_goal}×)\n`)
    process.stdout.write(`CPU of this process per delivery (sender included): receiver ${receiver.burst.cpu_ms_per_delivery} ms, Medusa route ${route.burst.cpu_ms_per_delivery} ms, answer-only server ${answerOnly.cpu_ms_per_delivery} ms\n`)
    process.stdout.write(`${JSON.stringify(summary)}\n`)
    for (const endpoint of [receiver, route]) {
      expect(endpoint.applied).toBe(DISTINCT_WEBHOOKS)
      expect(endpoint.recorded).toBe(DISTINCT_WEBHOOKS)
      expect(endpoint.non_2xx).toBe(0)
    }
  }, 1_200_000)
}, {
  startSandbox: startSandboxHarnessProcess,
  // Every checkout comes from 127.0.0.1: the card-testing guard still counts each (its cost is measured), per address
  // without a limit a benchmark would reach.
  env: { PGS_WEBHOOK_RECEIVER_PORT: "0", PGS_WEBHOOK_RECEIVER_HOST: "127.0.0.1", PGS_CARD_TESTING_ATTEMPTS_PER_ADDRESS: "1000000", PGS_CARD_TESTING_DECLINES_PER_ADDRESS: "1000000", PGS_CARD_TESTING_SESSIONS_PER_ADDRESS: "1000000" },
})
