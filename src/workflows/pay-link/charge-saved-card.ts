/**
 * The admin charges what an order owes to the customer's saved card (merchant-initiated): a card saved with the
 * customer's consent to later charges by the shop (option savedCardConsent, `merchant_consent_at`).
 *
 * Charged once whatever happens:
 * - a lock per collection (Medusa's locking module) serializes two admins and double clicks;
 * - each click carries a key, kept in the Medusa payment session's context before the gateway is called; a retry
 *   after a lost answer finds that session and applies it again, which the gateway answers from the same reference
 *   (never a second charge), and Medusa records once (applyCollectionPayment);
 * - a collection already paid answers "already paid";
 * - an answer the gateway never gave (it may have charged) is an error, never "not charged": the route answers 503
 *   and the admin retries the same click.
 * The charge goes through Medusa's own session (provider pgs, Direct API, saved_card) so Medusa records the payment
 * as for any other; the bank may still ask for the customer (3-D Secure applies to saved cards in the spec): then
 * nothing is charged and the admin is told to send the pay link.
 */
import { createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import type { BrowserInfo } from "../../gateway"
import { MONEY_LEASE_SECONDS, underLeasedLock } from "../../lib/leased-lock"
import { looseQuery } from "../../lib/loose-query"
import { PGS_MODULE } from "../../modules/pgs"
import type PgsModuleService from "../../modules/pgs/service"
import { applyCollectionPayment } from "../order-payments/apply-collection-payment"
import { findPgsSession } from "../pgs-events/lookup"
import { refusalMessage } from "./charge-refusal"
import { readOwedCollection } from "./owed-collection"

export const CARD_PROVIDER_ID = "pp_pgs_pgs"

export type ChargeInput = { orderId: string; collectionId: string; savedCardId: string; key: string; browserInfo: BrowserInfo }

export type ChargeOutcome =
  | { outcome: "paid"; payment_id: string; message: string }
  | { outcome: "already_paid"; message: string }
  | { outcome: "customer_needed"; message: string }
  | { outcome: "declined"; message: string }
  | { outcome: "pending"; message: string }
  | { outcome: "not_found" | "no_consent"; message: string }

const LOCK_TIMEOUT_SECONDS = 60

/**
 * The same click again answers its own charge and another click finds nothing owed, so a lease lost while it ran
 * (lib/leased-lock.ts) keeps its answer: the charge was made. Not guarded: another click that took the lock in that
 * window before this charge was recorded: hence the long lease, MONEY_LEASE_SECONDS.
 */
export function chargeSavedCard(container: MedusaContainer, input: ChargeInput): Promise<ChargeOutcome> {
  return underLeasedLock(container, `pgs-charge:${input.collectionId}`, () => charge(container, input), { timeout: LOCK_TIMEOUT_SECONDS, expire: MONEY_LEASE_SECONDS })
}

/** The session an earlier click with this key made, if any. */
async function sessionOfKey(container: MedusaContainer, collectionId: string, key: string): Promise<string | null> {
  const { data } = await looseQuery(container).graph({ entity: "payment_session", fields: ["id", "context"], filters: { payment_collection_id: collectionId } })
  const found = (data as Array<{ id: string; context: Record<string, unknown> | null }>).find((s) => s.context?.pgs_admin_charge_key === key)
  return found?.id ?? null
}

/**
 * What the click did: a terminal that authorizes leaves the money held until a capture, as at checkout. The charge
 * is made by then: a failed read only makes the words general.
 */
async function chargedWords(container: MedusaContainer, paymentId: string): Promise<string> {
  try {
    const { data } = await looseQuery(container).graph({ entity: "payment", fields: ["id", "captured_at"], filters: { id: paymentId } })
    const captured = !!(data[0] as { captured_at?: unknown } | undefined)?.captured_at
    return captured ? "Charged to the saved card." : "Authorized on the saved card: it is captured as the order's other payments are (from the order, or on fulfillment)."
  } catch {
    return "Paid with the saved card: the order's payments show whether it is captured yet."
  }
}

async function paymentOfSession(container: MedusaContainer, sessionId: string): Promise<string | null> {
  const { data } = await looseQuery(container).graph({ entity: "payment", fields: ["id"], filters: { payment_session_id: sessionId } })
  return (data[0] as { id?: string } | undefined)?.id ?? null
}

async function charge(container: MedusaContainer, input: ChargeInput): Promise<ChargeOutcome> {
  const earlier = await sessionOfKey(container, input.collectionId, input.key)
  const owed = await readOwedCollection(container, input.collectionId)
  if (owed === "paid") {
    const paymentId = earlier ? await paymentOfSession(container, earlier) : null
    // The same click again (a lost answer): its own result. Another click: nothing more is owed.
    if (paymentId) return { outcome: "paid", payment_id: paymentId, message: await chargedWords(container, paymentId) }
    return { outcome: "already_paid", message: "Nothing is owed any more: this amount has already been paid." }
  }
  if (typeof owed === "string" || owed.order_id !== input.orderId)
    return { outcome: "not_found", message: "This order owes nothing on that payment collection (paid, canceled or not this order's)." }

  const customerId = owed.order?.customer_id
  const pgs = container.resolve<PgsModuleService>(PGS_MODULE)
  const [card] = customerId ? await pgs.listPgsSavedCards({ id: input.savedCardId, customer_id: customerId, status: "ACTIVE" }) : []
  if (!card) return { outcome: "not_found", message: "The order's customer has no such saved card." }
  if (!card.merchant_consent_at)
    return { outcome: "no_consent", message: "The customer did not agree to later charges by the shop on this card: send the pay link instead." }

  let sessionId = earlier
  if (!sessionId) {
    const { result } = await createPaymentSessionsWorkflow(container).run({
      input: {
        payment_collection_id: owed.id,
        provider_id: CARD_PROVIDER_ID,
        customer_id: customerId!,
        data: { payment_method: { type: "saved_card", saved_card_id: card.id }, browser_info: input.browserInfo },
        // Kept before the gateway is called: a retry with this key finds this session (and its reference).
        context: { pgs_admin_charge_key: input.key },
      },
    })
    sessionId = result.id
  }
  const applied = await applyCollectionPayment(container, { sessionId, collectionId: owed.id })
  switch (applied.kind) {
    case "applied":
    case "already_applied":
      return { outcome: "paid", payment_id: applied.payment_id, message: await chargedWords(container, applied.payment_id) }
    case "requires_more":
      return {
        outcome: "customer_needed",
        message: "The customer's bank wants the customer to confirm this payment (3-D Secure), so the card was not charged. Send the customer the pay link instead.",
      }
    case "pending":
      return { outcome: "pending", message: "The bank has not decided yet. The payment is recorded as soon as it answers; do not charge again." }
    default: {
      // Still pending: the gateway's answer was lost (it may have charged). Never "not charged": the same click is
      // retried (same session and reference, so the gateway answers that transaction); the route says so (503).
      if (applied.kind === "not_approved" && applied.session_status === "pending") throw new Error(`the gateway did not answer the charge of payment session ${sessionId}`)
      const session = await findPgsSession(container, sessionId)
      return { outcome: "declined", message: refusalMessage(session?.data.error as { code?: unknown } | null | undefined) }
    }
  }
}
