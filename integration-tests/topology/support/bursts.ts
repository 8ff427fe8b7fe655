/**
 * Webhook bursts for the drills: distinct tokenization events (each one, applied, saves one card for a shopper, a
 * row anyone can count) signed with the gateway's key, plus exact duplicates of some; and what Medusa made of them.
 */
import { signed } from "./gateway"
import type { TopologySuite } from "./store"
import { sessionFields } from "../../support/session-fields"

export type Shopper = { gatewayCustomerId: string; email: string; id: string }

/** A logged-in shopper whose first payment saved a card, so the gateway knows them as a customer. */
export async function shopperWithGatewayCustomer(s: TopologySuite): Promise<Shopper> {
  const customer = await s.customer()
  const cart = await s.readyCart({ customerToken: customer.token, saveCard: true })
  const done = await s.store(undefined, { authorization: `Bearer ${customer.token}` }).post(`/store/carts/${cart.cartId}/complete`)
  if (done.body?.type !== "order") throw new Error(`the saving checkout placed no order: ${JSON.stringify(done.body).slice(0, 300)}`)
  // As the store keeps it: its store answers leave the gateway's customer id out.
  const [stored] = await s.sql("select data from payment_session where id = $1", [cart.sessionId])
  const gatewayCustomerId = sessionFields(stored?.data).gateway_customer_id
  if (!gatewayCustomerId) throw new Error("the payment session names no gateway customer")
  return { gatewayCustomerId, email: customer.email, id: customer.id }
}

/** `distinct` tokenization events for this shopper and `duplicates` repeats of them (same bytes), interleaved. */
export async function tokenizationBurst(s: TopologySuite, shopper: Shopper, tag: string, distinct: number, duplicates: number) {
  const bodies = Array.from({ length: distinct }, (_, i) =>
    JSON.stringify({
      event: "tokenization-webhook:payment-method:tokenized",
      payload: {
        payment_method: {
          id: `pm_${tag}_${i}`,
          type: "card",
          card: { brand: "VISA", last_4: String(1000 + (i % 9000)).slice(-4), bin: "400000", masked: "400000******1000", exp_month: 12, exp_year: 2031 },
        },
        transaction_id: null,
        customer: { id: shopper.gatewayCustomerId, first_name: "Grace", last_name: "Hopper", email: shopper.email },
        merchant_id: s.sandbox.config.merchant_id,
        created_at: new Date().toISOString(),
      },
    }),
  )
  const sends = await Promise.all(bodies.map((b) => signed(s.sandbox, b)))
  const out = [...sends]
  // Each duplicate goes in right after its original, so both are in flight together.
  for (let i = 0; i < duplicates; i++) out.splice(Math.min(out.length, (i * 7) % distinct + i + 1), 0, sends[(i * 7) % distinct]!)
  return out
}

/** What Medusa holds for a burst: its event rows and the cards saved from it. */
export async function burstState(s: TopologySuite, tag: string) {
  const [events] = await s.sql(
    `select count(*)::int as recorded, count(*) filter (where processed_at is not null)::int as processed,
            count(*) filter (where outcome = 'applied:card_saved')::int as applied, count(distinct subject_id)::int as subjects,
            count(*) filter (where processed_at is null and attempts = 0)::int as never_started
       from pgs_webhook_event where subject_id like $1`,
    [`pm_${tag}_%`],
  )
  const [cards] = await s.sql(
    "select count(*)::int as cards, count(distinct payment_method_id)::int as distinct_cards from pgs_saved_card where payment_method_id like $1 and deleted_at is null",
    [`pm_${tag}_%`],
  )
  return { ...events, ...cards } as { recorded: number; processed: number; applied: number; subjects: number; never_started: number; cards: number; distinct_cards: number }
}
