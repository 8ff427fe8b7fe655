/**
 * What the gateway was sent for a payment's captures and refunds when Medusa's amounts carry a fraction of a cent
 * (lib/medusa-amount.ts). Each row is sent as its share: the rows up to and including it rounded, less what the
 * gateway was sent for those before it. What was sent for a row is the provider's record of it (the payment data's
 * `captures` and `refunds`, by row id) where there is one, else its own share. So a row with a fraction that
 * disappeared after a later share counted it (a refund declined while a workflow's refund ran beside it) leaves no
 * cent behind: the next row sends the cent the drift left, and once Medusa's rows reach the whole, the gateway's sum is
 * the whole rounded. (A drift the other way, the gateway sent a cent more than the rows round to, stays until then:
 * the share below nothing is recorded as nothing sent, providers/pgs/management.ts.)
 */
import { MathBN } from "@medusajs/framework/utils"
import { exactAmount, medusaAmountInMinorUnits } from "./medusa-amount"

/** A capture or refund row as the shares read it: its id (the provider's idempotency key) and exact amount. */
export type ShareRow = { id: string; amount: string }

/** Medusa's rows as its queries return them: in the order Medusa made them (created_at, then id), exact amounts. */
export function inMadeOrder(rows: ReadonlyArray<{ id?: string; created_at?: string | Date | null; raw_amount?: unknown; amount?: unknown }>): ShareRow[] {
  const time = (r: { created_at?: string | Date | null }) => (r.created_at ? new Date(r.created_at).getTime() : 0)
  return [...rows]
    // Ids compared by code unit, as PostgreSQL's C collation does (localeCompare would follow the process's locale).
    .sort((a, b) => time(a) - time(b) || (String(a.id ?? "") < String(b.id ?? "") ? -1 : String(a.id ?? "") > String(b.id ?? "") ? 1 : 0))
    .map((r) => ({
      id: String(r.id ?? ""),
      amount: MathBN.convert(exactAmount(r)).toFixed(),
    }))
}

/** The provider's records of what it sent for each row (payment data's `captures` or `refunds`), by row id. */
export function sentByRow(records: unknown): Map<string, number> {
  const sent = new Map<string, number>()
  if (Array.isArray(records)) for (const r of records) if (typeof r?.key === "string" && Number.isInteger(r?.amount_minor)) sent.set(r.key, r.amount_minor)
  return sent
}

function walk(rows: ReadonlyArray<ShareRow>, currency: string, sent: ReadonlyMap<string, number>) {
  const shares = new Map<string, number>()
  let upTo = "0"
  let sentSoFar = 0
  for (const row of rows) {
    upTo = MathBN.add(upTo, row.amount).toFixed()
    const share = medusaAmountInMinorUnits(upTo, currency) - sentSoFar
    shares.set(row.id, share)
    sentSoFar += sent.get(row.id) ?? share
  }
  return { shares, sentSoFar }
}

/** The row's share in minor units (what the provider sends for it), or null when it is not among the rows. */
export function shareOfRow(rows: ReadonlyArray<ShareRow>, rowId: string, currency: string, sent: ReadonlyMap<string, number> = new Map()): number | null {
  return walk(rows, currency, sent).shares.get(rowId) ?? null
}

/** What the gateway was sent for all these rows, in minor units: its own total of them. */
export function sentForRows(rows: ReadonlyArray<ShareRow>, currency: string, sent: ReadonlyMap<string, number> = new Map()): number {
  return walk(rows, currency, sent).sentSoFar
}

type PaymentRows = {
  currency_code: string
  captures?: ReadonlyArray<{ id?: string; created_at?: string | Date | null; raw_amount?: unknown; amount?: unknown }> | null
  refunds?: ReadonlyArray<{ id?: string; created_at?: string | Date | null; raw_amount?: unknown; amount?: unknown }> | null
}

/**
 * What the gateway captured and refunded of a payment, in minor units, from Medusa's rows and the provider's records
 * (`records`: the payment's session fields, where `captures` and `refunds` are).
 */
export function gatewaySums(payment: PaymentRows, records: { captures?: unknown; refunds?: unknown }): { captured: number; refunded: number } {
  return {
    captured: sentForRows(inMadeOrder(payment.captures ?? []), payment.currency_code, sentByRow(records.captures)),
    refunded: sentForRows(inMadeOrder(payment.refunds ?? []), payment.currency_code, sentByRow(records.refunds)),
  }
}
