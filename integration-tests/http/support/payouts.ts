/**
 * Payout test support: request bodies as the dashboard sends them, the admin API called without throwing on
 * 4xx, what reached the gateway (the sandbox ledger) for a reference, and waiting for a webhook's effect.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { uniqueReference } from "../../support/sandbox"
import type { StoreSuite } from "./store"
import { processedEvent, waitFor } from "./webhooks"

export const ACCOUNT_NUMBER = "123456789012"
/** Unmapped in the sandbox's test-card table: the metadata response_code decides its outcome. */
export const PLAIN_CARD = "4111111111111111"

export function bankPayout(overrides: Record<string, unknown> = {}) {
  return {
    reference: uniqueReference("po"),
    amount: "1250.50",
    currency_code: "inr",
    description: "Supplier settlement",
    beneficiary: { type: "bank_account", account_number: ACCOUNT_NUMBER, account_name: "Asha Traders", ifsc: "HDFC0001234" },
    ...overrides,
  }
}

export function cardPayout(number: string, overrides: Record<string, unknown> = {}, card: Record<string, unknown> = {}) {
  return {
    reference: uniqueReference("po-card"),
    amount: 25,
    currency_code: "eur",
    description: "Refund to card",
    beneficiary: { type: "card", number, expiration_month: 12, expiration_year: new Date().getUTCFullYear() + 2, cvv: "123", ...card },
    ...overrides,
  }
}

export type Answer = { status: number; data: any }

export async function postPayout(s: StoreSuite, body: unknown, headers?: Record<string, string>): Promise<Answer> {
  const res = await s.api.post("/admin/pgs/payouts", body, { headers: headers ?? (await s.adminHeaders()), validateStatus: () => true })
  return { status: res.status, data: res.data }
}

export async function getPayout(s: StoreSuite, id: string): Promise<any> {
  const res = await s.api.get(`/admin/pgs/payouts/${id}`, { headers: await s.adminHeaders() })
  return res.data.payout
}

/** Every call that reached the gateway for this reference (replay: true for an idempotent repeat). */
export async function gatewayCalls(s: StoreSuite, reference: string): Promise<any[]> {
  const res = await s.sandbox.control("GET", "/_sandbox/ledger")
  return (res.body.entries as any[]).filter((e) => e.reference === reference)
}

/** The gateway decides a pending transaction (sandbox control); its webhook follows. */
export async function decide(s: StoreSuite, transactionId: string, status: "APPROVED" | "DECLINED", processingCode: string) {
  const res = await s.sandbox.control("POST", `/_sandbox/transactions/${transactionId}/outcome`, { status, processing_code: processingCode })
  if (res.status !== 200) throw new Error(`outcome control: ${res.status} ${res.text}`)
}

/** The outcomes of these events of a transaction, once each was processed. */
export async function settledOutcomes(s: StoreSuite, transactionId: string, events: string[]): Promise<Array<string | null>> {
  const rows = await Promise.all(events.map((event) => processedEvent(s, transactionId, event)))
  return rows.map((r) => r.outcome)
}

export const waitForPayoutStatus = (s: StoreSuite, id: string, status: string) =>
  waitFor(async () => {
    const payout = await getPayout(s, id)
    return payout.status === status && payout
  }, { what: `payout ${id} ${status}` })

/** The stored rows as the database holds them (to prove what is and is not kept). */
export async function payoutRows(s: StoreSuite): Promise<any[]> {
  return s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)("pgs_payout").select("*")
}
