/**
 * Every raw read and write of Medusa's own tables (the plugin's pgs_* tables are not here). Each exists because
 * Medusa does not hand the provider something it needs; each read failure degrades to "unknown" (null) and is
 * logged by the caller. A Medusa release may rename what these use, so MEDUSA_COLUMNS lists every table and column
 * named below and the module's loader checks them against the live schema at boot (loaders/check-medusa-tables.ts).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { MathBN } from "@medusajs/framework/utils"
import { medusaAmountInMinorUnits } from "../../lib/medusa-amount"
import { sentByRow, shareOfRow, type ShareRow } from "../../lib/operation-shares"

/** Keep in step with the queries below: the boot check reads only this list. */
export const MEDUSA_COLUMNS = {
  capture: ["id", "raw_amount", "payment_id", "deleted_at", "created_at", "created_by"],
  payment: ["id", "raw_amount", "data", "provider_id", "currency_code", "payment_session_id", "payment_collection_id", "captured_at", "canceled_at", "deleted_at"],
  order_payment_collection: ["order_id", "payment_collection_id", "deleted_at"],
  order: ["id", "status", "display_id"],
  refund: ["id", "metadata", "raw_amount", "payment_id", "deleted_at", "created_at", "created_by", "note", "refund_reason_id"],
  customer_account_holder: ["account_holder_id", "customer_id", "deleted_at"],
  payment_session: ["id", "data", "status", "updated_at", "payment_collection_id"],
} as const satisfies Record<string, readonly string[]>

/** Where these were checked (package.json's peer range). */
export const SUPPORTED_MEDUSA = "2.18 to 2.21"

/**
 * Refund metadata naming a gateway refund made outside Medusa: the webhook workflow writes it
 * (workflows/pgs-events/management.ts), the provider's refundPayment reads it and does not refund again.
 */
export const EXTERNAL_REFUND_METADATA_KEY = "pgs_transaction_id"
/** Beside it, what the gateway refunded in minor units: the row's amount may be Medusa's exact rest (30.345 for 3035). */
const EXTERNAL_REFUND_AMOUNT_KEY = "pgs_amount_minor"

/** A refund row's metadata recording the gateway's refund transaction and its amount. */
export const externalRefundMetadata = (transactionId: string, amountMinor: number) => ({
  [EXTERNAL_REFUND_METADATA_KEY]: transactionId,
  [EXTERNAL_REFUND_AMOUNT_KEY]: amountMinor,
})

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value)

/**
 * A capture or refund row's share of its payment in the gateway's minor units (lib/medusa-amount.ts): Medusa's rows
 * of the payment in the order they were made, so rows with a taxed fraction of a cent add up to what the gateway
 * took. Null when the row is not there. (Medusa passes capturePayment no amount: it is on the capture row created
 * just before, id = idempotency key; a refund's row is written before the provider is called too.)
 */
export async function operationShareMinor(knex: Knex, kind: "capture" | "refund", rowId: string, currency: string, sent?: ReadonlyMap<string, number>): Promise<number | null> {
  // One round trip: the row's payment found inside the query.
  const rows: Array<{ id: string; raw_amount: unknown }> = await knex(kind)
    .where("payment_id", knex(kind).select("payment_id").where({ id: rowId }))
    .whereNull("deleted_at")
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("id", "raw_amount")
  return shareOfRow(rows.map((r) => ({ id: r.id, amount: json(r.raw_amount)?.value as string })), rowId, currency, sent)
}

/** The capture or refund rows of each payment, in the order Medusa made them (as operationShareMinor reads them). */
async function rowsOfPayments(knex: Knex, kind: "capture" | "refund", paymentIds: string[]): Promise<Map<string, ShareRow[]>> {
  const byPayment = new Map<string, ShareRow[]>()
  if (!paymentIds.length) return byPayment
  const rows: Array<{ id: string; payment_id: string; raw_amount: unknown }> = await knex(kind)
    .whereIn("payment_id", paymentIds)
    .whereNull("deleted_at")
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .select("id", "payment_id", "raw_amount")
  for (const r of rows) {
    const ofPayment = byPayment.get(r.payment_id) ?? []
    ofPayment.push({ id: r.id, amount: json(r.raw_amount)?.value as string })
    byPayment.set(r.payment_id, ofPayment)
  }
  return byPayment
}

/**
 * Whether this capture takes what was left of the payment: Medusa's capture rows of the payment (this one
 * included, as Medusa writes it before calling the provider) add up to the payment's amount. Exact.
 */
export async function capturesComplete(knex: Knex, captureId: string): Promise<boolean | null> {
  const row = await knex("capture").where({ id: captureId }).first("payment_id")
  if (!row?.payment_id) return null
  const payment = await knex("payment").where({ id: row.payment_id }).first("raw_amount")
  const rows: Array<{ raw_amount: unknown }> = await knex("capture").where({ payment_id: row.payment_id }).whereNull("deleted_at").select("raw_amount")
  const authorized = json(payment?.raw_amount)?.value
  if (authorized === undefined) return null
  // Compared as Medusa's exact decimals: its amounts may carry a fraction of a minor unit (lib/medusa-amount.ts).
  return MathBN.gte(MathBN.sum(0, ...rows.map((r) => json(r.raw_amount).value as string)), authorized)
}

/** A capture or refund row Medusa wrote for its call to the provider; the row's id is the call's idempotency key. */
export type UnfinishedOperation = {
  kind: "capture" | "refund"
  id: string
  payment_id: string
  /** Medusa's exact amount, and the share the provider sent or would have sent for it. */
  amount: string
  amount_minor: number
  currency_code: string
  created_at: Date
  data: Record<string, unknown>
}

/**
 * Capture or refund rows of PGS payments that the provider never recorded: Medusa writes the row before calling the
 * provider and the provider adds the row's id (its idempotency key) to the payment's data (`captures` or `refunds`)
 * when the gateway answers, so a row older than `before` without its key is a call that died with its process (or is
 * still hanging). Rows recording operations made at the gateway are not Medusa's calls and are left out: captures
 * with created_by "pgs:<transaction>", refunds with EXTERNAL_REFUND_METADATA_KEY in their metadata.
 */
export async function unfinishedOperations(knex: Knex, kind: UnfinishedOperation["kind"], before: Date, since: Date, limit: number): Promise<UnfinishedOperation[]> {
  const query = knex(`${kind} as r`)
    .join("payment as p", "p.id", "r.payment_id")
    .whereNull("r.deleted_at")
    .whereNull("p.deleted_at")
    .whereNull("p.canceled_at")
    .where("p.provider_id", "like", "pp_pgs%")
    .where("r.created_at", "<", before)
    .where("r.created_at", ">", since)
    .whereRaw(`not coalesce(p.data->'${kind}s', '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('key', r.id))`)
  if (kind === "capture") query.where((q) => q.whereNull("r.created_by").orWhere("r.created_by", "not like", "pgs:%"))
  else query.whereRaw("coalesce(r.metadata->>?, '') = ''", [EXTERNAL_REFUND_METADATA_KEY])
  const rows: Array<{ id: string; payment_id: string; raw_amount: unknown; currency_code: string; created_at: Date; data: unknown }> = await query
    .orderBy("r.created_at", "asc")
    .limit(limit)
    .select("r.id", "r.payment_id", "r.raw_amount", "r.created_at", "p.currency_code", "p.data")
  // Every row of those payments in one read, for each row's share.
  const siblings = await rowsOfPayments(knex, kind, [...new Set(rows.map((r) => r.payment_id))])
  return rows.map((r) => {
    const data = (json(r.data) ?? {}) as Record<string, unknown>
    const share = shareOfRow(siblings.get(r.payment_id) ?? [], r.id, r.currency_code, sentByRow(data[`${kind}s`]))
    return {
      kind,
      id: r.id,
      payment_id: r.payment_id,
      amount: String(json(r.raw_amount)?.value),
      // The share the provider sent or would have sent for it, so the gateway's record of it is recognised.
      amount_minor: share ?? medusaAmountInMinorUnits({ value: json(r.raw_amount).value }, r.currency_code),
      currency_code: r.currency_code,
      created_at: r.created_at,
      data,
    }
  })
}

/** What a person gave a capture or refund row: its author, and for a refund its note and reason. */
export type OperationRowDetails = { created_by: string | null; note: string | null; refund_reason_id: string | null }

/**
 * A capture or refund row reconciliation removed because the gateway's record of the operation replaces it: soft
 * deleted (workflows/medusa-operation-rows.ts), where Medusa hard-deletes the rows of calls that failed. Its details,
 * so the record that replaces it keeps them; null when no such removed row exists.
 */
export async function removedOperationRow(knex: Knex, kind: "capture" | "refund", rowId: string): Promise<OperationRowDetails | null> {
  const columns = kind === "refund" ? ["created_by", "note", "refund_reason_id"] : ["created_by"]
  const row = await knex(kind).where({ id: rowId }).whereNotNull("deleted_at").first(columns)
  return row ? { created_by: row.created_by ?? null, note: row.note ?? null, refund_reason_id: row.refund_reason_id ?? null } : null
}

/** The payment's refund row that records this gateway refund transaction, if any. */
export const externalRefundRow = <R extends { metadata?: Record<string, unknown> | null }>(refunds: R[], transactionId: string): R | undefined =>
  refunds.find((r) => r.metadata?.[EXTERNAL_REFUND_METADATA_KEY] === transactionId)

/** A gateway refund a refund row records; its amount is null on rows an earlier version wrote. */
export type ExternalRefund = { transactionId: string; amountMinor: number | null }

/** The gateway refund a refund row records (see externalRefundMetadata), or null for Medusa's own. */
export async function externalRefundOf(knex: Knex, refundId: string): Promise<ExternalRefund | null> {
  const row = await knex("refund").where({ id: refundId }).first("metadata")
  const metadata = json(row?.metadata)
  const id = metadata?.[EXTERNAL_REFUND_METADATA_KEY]
  if (typeof id !== "string" || !id) return null
  const amount = metadata[EXTERNAL_REFUND_AMOUNT_KEY]
  return { transactionId: id, amountMinor: Number.isInteger(amount) ? amount : null }
}

/** listPaymentMethods gets the account holder, not the customer: follow Medusa's customer ↔ account holder link. */
export async function customerOfAccountHolder(knex: Knex, accountHolderId: string): Promise<string | null> {
  const row = await knex("customer_account_holder").where({ account_holder_id: accountHolderId }).whereNull("deleted_at").first("customer_id")
  return row?.customer_id ?? null
}

/** The order (as `o`) whose payment collection is `collectionColumn`, through Medusa's link table; nulls when none. */
const withOrderOf = (query: Knex.QueryBuilder, collectionColumn: string) =>
  query
    .leftJoin("order_payment_collection as opc", (on) => on.on("opc.payment_collection_id", collectionColumn).andOnNull("opc.deleted_at"))
    .leftJoin("order as o", "o.id", "opc.order_id")

export type RecordedPayment = { captured: boolean; canceled: boolean; order_id: string | null; order_status: string | null }

/**
 * The payment Medusa made for a session, and the status of the order its collection paid (null: no order), in one
 * read; null when the session has no payment. An approval webhook a checkout already recorded reads only this
 * (workflows/pgs-events/approval.ts), where the query graph would take four queries and a workflow.
 */
export async function recordedPaymentOfSession(knex: Knex, sessionId: string): Promise<RecordedPayment | null> {
  const row = await withOrderOf(knex("payment as p"), "p.payment_collection_id")
    .where("p.payment_session_id", sessionId)
    .whereNull("p.deleted_at")
    .first("p.captured_at", "p.canceled_at", "o.id as order_id", "o.status as order_status")
  return row ? { captured: !!row.captured_at, canceled: !!row.canceled_at, order_id: row.order_id ?? null, order_status: row.order_status ?? null } : null
}

/** The number of the order whose payment collection the session pays (#12), or null (a cart's session: no order yet). */
export async function orderNumberOfSession(knex: Knex, sessionId: string): Promise<number | null> {
  const row = await withOrderOf(knex("payment_session as ps"), "ps.payment_collection_id")
    .where("ps.id", sessionId)
    .first("o.display_id")
  return row?.display_id ?? null
}

/** The order whose payment collection holds a session (an order edit's, a draft's, a completed cart's), else null. */
export async function orderIdOfSession(knex: Knex, sessionId: string): Promise<string | null> {
  const row = await withOrderOf(knex("payment_session as ps"), "ps.payment_collection_id")
    .where("ps.id", sessionId)
    .first("o.id")
  return row?.id ?? null
}

/**
 * Adds to the payment's data the provider's record of a capture made at the gateway (the row Medusa recorded for it,
 * created_by `createdBy`): the gateway's amount, which the shares of the captures after it count
 * (lib/operation-shares.ts). Medusa records such a capture without calling the provider, which would write it. Once:
 * nothing is written when the row has a record.
 */
export async function recordGatewayCapture(knex: Knex, paymentId: string, createdBy: string, transactionId: string, amountMinor: number): Promise<void> {
  const row = await knex("capture").where({ payment_id: paymentId, created_by: createdBy }).whereNull("deleted_at").first("id")
  if (row) await addOperationRecord(knex, "capture", paymentId, { key: row.id, transaction_id: transactionId, amount_minor: amountMinor, kind: "external" })
}

/**
 * Appends a record to the payment's data (`captures` or `refunds`) in one statement, as the provider would have
 * returned it; nothing when a record with its key is there.
 */
async function addOperationRecord(knex: Knex, kind: "capture" | "refund", paymentId: string, record: { key: string; transaction_id: string | null; amount_minor: number; kind: string }): Promise<void> {
  const list = `${kind}s`
  await knex("payment")
    .where({ id: paymentId })
    .whereRaw("not coalesce(data->?, '[]'::jsonb) @> jsonb_build_array(jsonb_build_object('key', ?::text))", [list, record.key])
    .update({ data: knex.raw("jsonb_set(coalesce(data, '{}'::jsonb), ?::text[], coalesce(data->?, '[]'::jsonb) || ?::jsonb)", [`{${list}}`, list, JSON.stringify([record])]) })
}

/** Saves a session's data and status (see providers/pgs/session-records.ts, reportUnauthorized, for why). */
export async function saveSessionOutcome(knex: Knex, sessionId: string, status: string, data: Record<string, unknown>): Promise<void> {
  await knex("payment_session").where({ id: sessionId }).update({ data: JSON.stringify(data), status, updated_at: new Date() })
}

export type ColumnRow = { table_name: string; column_name: string }

/** What MEDUSA_COLUMNS names that `found` lacks, one line each ("table payment_session", "column refund.metadata"). */
export function missingMedusaColumns(found: readonly ColumnRow[]): string[] {
  const have = new Set(found.map((r) => `${r.table_name}.${r.column_name}`))
  const tables = new Set(found.map((r) => r.table_name))
  return Object.entries(MEDUSA_COLUMNS).flatMap(([table, columns]) =>
    tables.has(table) ? columns.filter((c) => !have.has(`${table}.${c}`)).map((c) => `column ${table}.${c}`) : [`table ${table}`],
  )
}

/** Reads the live columns of MEDUSA_COLUMNS' tables (schemas on the connection's search path). */
export async function liveMedusaColumns(knex: Knex): Promise<ColumnRow[]> {
  const { rows } = await knex.raw(
    "select table_name, column_name from information_schema.columns where table_schema = any(current_schemas(false)) and table_name = any(?)",
    [Object.keys(MEDUSA_COLUMNS)],
  )
  return rows
}
