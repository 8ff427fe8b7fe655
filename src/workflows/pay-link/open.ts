/**
 * Opening a pay link: the gateway's hosted page for exactly what the collection owes, through Medusa's own payment
 * session (provider pgs-hosted), so the approval webhook applies it like any other (processPaymentWorkflow).
 * - A page still open for this amount is reused: two tabs, or a second visit, go to the same page, which the
 *   gateway lets pay once (one reference, one transaction).
 * - After a decline, cancel or error the next visit makes a new session, hence a new reference.
 * - Under a lock per collection, so two visits at once cannot make two pages.
 * Nothing here applies a payment: the webhook (or reconciliation) does.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import { readOwedCollection, type NotPayable, type OwedSession } from "./owed-collection"
import { findPgsSession } from "../pgs-events/lookup"
import { payerOfOrder } from "../../payments/order-payer"
import { sessionFields } from "../../payments/stored-session-data"
import { RENEWED_LEASE_SECONDS, underLeasedLock } from "../../lib/leased-lock"

export const PAY_LINK_PROVIDER_ID = "pp_pgs-hosted_pgs"

export type PayLinkOpening = { kind: "redirect"; url: string } | { kind: NotPayable } | { kind: "processing" } | { kind: "failed"; message: string }

const LOCK_TIMEOUT_SECONDS = 30

type Data = { return_to?: unknown; next_action?: { type?: unknown; url?: unknown } | null; transaction_id?: unknown }

export const isPayLinkSession = (session: Pick<OwedSession, "provider_id" | "data">) => session.provider_id === PAY_LINK_PROVIDER_ID && (session.data as Data | null)?.return_to === "pay_link"

/** A payment made through the link that the gateway is still deciding: a new page now could be paid twice. */
const deciding = (sessions: OwedSession[]) =>
  sessions.some((s) => isPayLinkSession(s) && typeof (s.data as Data).transaction_id === "string" && !["error", "canceled", "requires_more"].includes(s.status))

/** The pay link's session whose page is still open, if any. */
function openPage(sessions: OwedSession[]): string | null {
  for (const session of sessions) {
    const data = (session.data ?? {}) as Data
    if (!isPayLinkSession(session) || session.status !== "requires_more") continue
    if (data.next_action?.type === "redirect" && typeof data.next_action.url === "string") return data.next_action.url
  }
  return null
}

/** The order's email, name, phone and country, in the shape the provider reads from Medusa's context. */
function payerContext(owed: Exclude<Awaited<ReturnType<typeof readOwedCollection>>, string>) {
  if (!owed.order) return {}
  const payer = payerOfOrder(owed.order)
  return {
    customer: {
      email: payer.email,
      first_name: payer.first_name,
      last_name: payer.last_name,
      phone: payer.phone,
      billing_address: { country_code: payer.country?.toLowerCase() },
    },
  } as Record<string, unknown>
}

/** One lock per collection for everything that opens or closes its pay link's page. */
export const payLinkLockKey = (collectionId: string) => `pgs-pay-link:${collectionId}`

/**
 * A lease lost while it ran (lib/leased-lock.ts) keeps the page it answers: the page was made. A visit that took the
 * lock meanwhile may have made another: Medusa keeps only the collection's newest session, and money a replaced page
 * takes after all goes back through the late-money path, as after a typed cancel (shopper-canceled.ts).
 */
export function openPayLink(container: MedusaContainer, collectionId: string): Promise<PayLinkOpening> {
  return underLeasedLock(container, payLinkLockKey(collectionId), () => open(container, collectionId), { timeout: LOCK_TIMEOUT_SECONDS, expire: RENEWED_LEASE_SECONDS })
}

async function open(container: MedusaContainer, collectionId: string): Promise<PayLinkOpening> {
  const owed = await readOwedCollection(container, collectionId)
  if (typeof owed === "string") return { kind: owed }
  if (deciding(owed.sessions)) return { kind: "processing" }
  // A page made for another amount (the order changed since) is not reused.
  const reusable = openPage(owed.sessions.filter((s) => sessionFields(s.data).amount_minor === owed.owed_minor))
  if (reusable) return { kind: "redirect", url: reusable }

  const { result: created } = await createPaymentSessionsWorkflow(container).run({
    input: { payment_collection_id: collectionId, provider_id: PAY_LINK_PROVIDER_ID, data: { pay_link: true } },
  })
  const payment = container.resolve(Modules.PAYMENT)
  try {
    // The hosted page is made at authorization; it answers "requires more" (the shopper must pay on the page),
    // which the payment module reports as an error after the provider saved the session.
    // The payer as the order knows them (never what a browser says): the gateway's page shows and keeps it.
    await payment.authorizePaymentSession(created.id, payerContext(owed))
  } catch {
    // Read below: the saved session says what happened.
  }
  const session = await findPgsSession(container, created.id)
  const data = (session?.data ?? {}) as Data & { error?: { message?: unknown } | null }
  if (session?.status === "requires_more" && data.next_action?.type === "redirect" && typeof data.next_action.url === "string")
    return { kind: "redirect", url: data.next_action.url }
  const message = typeof data.error?.message === "string" ? data.error.message : "The payment page could not be opened."
  return { kind: "failed", message }
}
