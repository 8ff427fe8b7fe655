/**
 * Reads and one write of the payment module's own rows, through the payment module's connection
 * (`__pg_connection__` in the provider's cradle). Each exists because Medusa does not hand the provider
 * something it needs; each failure degrades to "unknown" (null) and is logged by the caller.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { toMinorUnits } from "../../gateway"

/** Refund metadata naming a gateway refund made outside Medusa (set by the webhook workflow). */
export const EXTERNAL_REFUND_METADATA_KEY = "pgs_transaction_id"

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)

/** Medusa passes capturePayment no amount: it is on the capture row created just before (id = idempotency key). */
export async function captureAmountMinor(knex: Knex, captureId: string, currency: string): Promise<number | null> {
  const row = await knex("capture").where({ id: captureId }).first("raw_amount")
  const raw = json(row?.raw_amount)
  return raw?.value !== undefined ? toMinorUnits({ value: raw.value }, currency) : null
}

/**
 * Contract with the webhook workflow (workflows/pgs-events/management.ts): a refund row whose metadata carries
 * `pgs_transaction_id` records a refund that already happened at the gateway, so the provider must not refund again.
 */
export async function externalRefundOf(knex: Knex, refundId: string): Promise<string | null> {
  const row = await knex("refund").where({ id: refundId }).first("metadata")
  const id = json(row?.metadata)?.[EXTERNAL_REFUND_METADATA_KEY]
  return typeof id === "string" && id ? id : null
}

/** listPaymentMethods gets the account holder, not the customer: follow Medusa's customer ↔ account holder link. */
export async function customerOfAccountHolder(knex: Knex, accountHolderId: string): Promise<string | null> {
  const row = await knex("customer_account_holder").where({ account_holder_id: accountHolderId }).whereNull("deleted_at").first("customer_id")
  return row?.customer_id ?? null
}

/** Saves a session's data and status (see PgsBaseProvider.reportUnauthorized for why). */
export async function saveSessionOutcome(knex: Knex, sessionId: string, status: string, data: Record<string, unknown>): Promise<void> {
  await knex("payment_session").where({ id: sessionId }).update({ data: JSON.stringify(data), status, updated_at: new Date() })
}
