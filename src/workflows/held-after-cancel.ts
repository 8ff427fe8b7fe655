/**
 * The part of a canceled order's card authorization that no capture took. Medusa's cancel refunds what was captured
 * and voids only a payment nothing was captured from; the gateway's VOID is "before capture" (spec, management
 * types), so once a capture took part of an authorization nothing can release the rest: it stays held on the
 * customer's card until their bank lets the authorization lapse. Nobody can take it any more (the provider refuses a
 * capture on a canceled order), but the customer sees it held, so the shop admin is told on "Needs attention" in
 * words, once per payment, and the order widget says the same.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../gateway"
import { openFollowUp } from "../modules/pgs/follow-ups"
import { canceledPayments, type CanceledPayment } from "./refund-not-made"

export const heldAfterCancelKey = (paymentId: string) => `held-after-cancel:${paymentId}`

const money = (minor: number, currency: string) => `${fromMinorUnits(minor, currency)} ${currency.toUpperCase()}`

function noteOf(p: CanceledPayment): string {
  const order = p.displayId === null ? "The order" : `Order #${p.displayId}`
  return (
    `${order} was canceled while ${money(p.heldMinor, p.currency)} of its card authorization was never captured (${money(p.capturedMinor, p.currency)} was). ` +
    "The gateway releases an authorization (a void) only before any capture, so this part cannot be released: it stays held on the customer's card until their bank lets the authorization lapse. " +
    "Nothing more is taken: a capture on a canceled order is refused. Tell the customer, should they ask why it is still held, then mark this handled."
  )
}

/** Lists each of the canceled order's payments whose authorization still holds money; safe to run again. */
export async function listHeldAfterCancel(container: MedusaContainer, orderId: string): Promise<void> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  for (const p of await canceledPayments(container, orderId)) {
    if (p.heldMinor <= 0) continue
    await openFollowUp(knex, {
      key: heldAfterCancelKey(p.paymentId),
      kind: "held_after_cancel",
      state: "needs_person",
      transaction_id: p.transactionId,
      reference: p.reference,
      order_id: p.orderId,
      amount_minor: p.heldMinor,
      currency_code: p.currency,
      note: noteOf(p),
    })
  }
}
