/**
 * `npm run bench:checkout`, on one running store:
 * 1. cart completions through pp_pgs_pgs (Direct API with a saved card, frictionless: no browser needed) and through
 *    Medusa's pp_system_default, interleaved; each timed from payment session to order (initiate + complete);
 * 2. 1,000 distinct signed webhooks (tokenization events) plus 200 duplicates of them at concurrency 50, sent from
 *    a worker thread (the gateway's side; BENCH_SENDER=inline sends from the store's own event loop): the time
 *    until our endpoint acknowledges, how many distinct events were applied (each must be applied once) and how
 *    long until all were; `burst` says where the time went (event loop, GC, CPU share, database pool).
 * The last line of stdout is one JSON object.
 */
import { Worker } from "node:worker_threads"
import path from "node:path"
import { percentile, round } from "./support"
import { startProbes } from "./probes"
import { pgsStoreSuite, PGS_PROVIDER_ID, SYSTEM_PROVIDER_ID } from "../integration-tests/http/support/store"
import { BROWSER_INFO } from "../integration-tests/http/support/checkout"
import { walletPayment } from "../integration-tests/http/support/checkout-direct"
import { waitFor } from "../integration-tests/support/sandbox"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

const CHECKOUTS = Number(process.env.BENCH_CHECKOUTS ?? 200)
const DISTINCT_WEBHOOKS = 1000
const DUPLICATE_WEBHOOKS = 200
const WEBHOOK_CONCURRENCY = 50
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { sendAll } = require("./webhook-sender") as { sendAll(job: SendJob): Promise<SendResult> }

type SendJob = { origin: string; path: string; sends: Array<{ body: string; authorization: string }>; concurrency: number }
type SendResult = { acks: number[]; non2xx: number }

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
    const gatewayCustomerId: string = saving.data.gateway_customer_id

    const checkout = async (providerId: string) => {
      const cart = await s.createCart({ customerToken: token })
      const data = providerId === PGS_PROVIDER_ID ? { payment_method: { type: "saved_card", saved_card_id: card.id }, browser_info: BROWSER_INFO } : undefined
      const started = performance.now()
      await s.initiatePaymentSession(cart.id, providerId, data, token)
      const done = await s.completeCart(cart.id, token)
      const ms = performance.now() - started
      if (done.data.type !== "order") throw new Error(`${providerId}: no order (${JSON.stringify(done.data.error ?? done.data).slice(0, 200)})`)
      return ms
    }
    const pgs: number[] = []
    const system: number[] = []
    for (let i = 0; i < 10; i++) await checkout(i % 2 ? PGS_PROVIDER_ID : SYSTEM_PROVIDER_ID) // warm-up
    for (let i = 0; i < CHECKOUTS; i++) {
      pgs.push(await checkout(PGS_PROVIDER_ID))
      system.push(await checkout(SYSTEM_PROVIDER_ID))
    }
    pgs.sort((a, b) => a - b)
    system.sort((a, b) => a - b)

    // Webhooks: tokenization events for this shopper's gateway customer, signed with the sandbox's webhook key.
    const sign = (body: string) => s.sandbox.sandbox.context.webhooks.sign(body)
    const bodies = Array.from({ length: DISTINCT_WEBHOOKS }, (_, i) =>
      JSON.stringify({
        event: "tokenization-webhook:payment-method:tokenized",
        payload: {
          payment_method: {
            id: `pm_bench_${i}_${Date.now().toString(36)}`,
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
    const sends = [...signed, ...Array.from({ length: DUPLICATE_WEBHOOKS }, (_, i) => signed[(i * 7) % DISTINCT_WEBHOOKS])]
    const url = new URL(s.webhookUrl)
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const probes = startProbes(knex)
    const burstStarted = performance.now()
    const job = { origin: url.origin, path: url.pathname, sends, concurrency: WEBHOOK_CONCURRENCY }
    const { acks, non2xx } = process.env.BENCH_SENDER === "inline" ? await sendAll(job) : await inWorker(job)
    const burst = { ms: round(performance.now() - burstStarted, 0), ...probes.stop() }
    acks.sort((a, b) => a - b)

    // Only the benchmark's own events (the first checkout's real tokenization event is not one of them).
    const benchEvents = () => knex("pgs_webhook_event").where("subject_id", "like", "pm_bench_%")
    const appliedCount = async () => Number((await benchEvents().where("outcome", "applied:card_saved").count({ n: "*" }))[0].n)
    let applied = 0
    try {
      await waitFor(async () => (applied = await appliedCount()) >= DISTINCT_WEBHOOKS, { timeoutMs: 300_000, intervalMs: 200, what: "every webhook applied" })
    } catch {
      applied = await appliedCount()
    }
    const allAppliedMs = performance.now() - burstStarted
    const recorded = Number((await benchEvents().count({ n: "*" }))[0].n)

    const summary = {
      bench: "checkout",
      checkouts_per_provider: CHECKOUTS,
      pgs_p50_ms: round(percentile(pgs, 50), 1),
      system_p50_ms: round(percentile(system, 50), 1),
      p50_ratio: round(percentile(pgs, 50) / percentile(system, 50)),
      webhook_ack_p50_ms: round(percentile(acks, 50), 1),
      webhook_ack_p99_ms: round(percentile(acks, 99), 1),
      webhooks_sent: sends.length,
      webhooks_distinct: DISTINCT_WEBHOOKS,
      webhooks_recorded: recorded,
      webhooks_non_2xx: non2xx,
      webhooks_applied: applied,
      webhooks_all_applied_after_ms: round(allAppliedMs, 0),
      burst,
    }
    // Straight to stdout (jest writes its own report to stderr), so this is the last line.
    process.stdout.write(`checkout: pgs p50 ${summary.pgs_p50_ms} ms vs system p50 ${summary.system_p50_ms} ms; webhook ack p50 ${summary.webhook_ack_p50_ms} ms, p99 ${summary.webhook_ack_p99_ms} ms\n`)
    process.stdout.write(`${JSON.stringify(summary)}\n`)
    expect(applied).toBe(DISTINCT_WEBHOOKS)
    expect(recorded).toBe(DISTINCT_WEBHOOKS)
  }, 1_200_000)
})
