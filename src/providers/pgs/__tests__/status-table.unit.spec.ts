import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { TRANSACTION_STATUSES } from "../../../gateway/schemas"
import { medusaStatusFor, gatewayTransactionType } from "../status-table"

const S = PaymentSessionStatus
type Row = [status: (typeof TRANSACTION_STATUSES)[number], type: "AUTHORIZE" | "PURCHASE" | "PAYMENT", awaiting: boolean, expected: PaymentSessionStatus]

const rows: Row[] = [
  ["CREATED", "AUTHORIZE", false, S.PENDING],
  ["CREATED", "PURCHASE", false, S.PENDING],
  ["CREATED", "AUTHORIZE", true, S.REQUIRES_MORE],
  ["CREATED", "PURCHASE", true, S.REQUIRES_MORE],
  ["PENDING", "AUTHORIZE", true, S.REQUIRES_MORE],
  ["PENDING", "PURCHASE", true, S.REQUIRES_MORE],
  ["PENDING", "AUTHORIZE", false, S.PENDING_AUTHORIZATION],
  ["PENDING", "PURCHASE", false, S.PENDING_AUTHORIZATION],
  ["APPROVED", "AUTHORIZE", false, S.AUTHORIZED],
  ["APPROVED", "PURCHASE", false, S.CAPTURED],
  ["DECLINED", "AUTHORIZE", false, S.ERROR],
  ["DECLINED", "PURCHASE", false, S.ERROR],
  ["INVALID", "AUTHORIZE", false, S.ERROR],
  ["SESSION_EXPIRED", "PURCHASE", false, S.ERROR],
  ["CANCELED", "AUTHORIZE", false, S.CANCELED],
  ["CANCELED", "PURCHASE", false, S.CANCELED],
  // Alternative payments (PAYMENT): single-step like PURCHASE; a provider still deciding is pending_authorization.
  ["CREATED", "PAYMENT", true, S.REQUIRES_MORE],
  ["PENDING", "PAYMENT", false, S.PENDING_AUTHORIZATION],
  ["APPROVED", "PAYMENT", false, S.CAPTURED],
  ["DECLINED", "PAYMENT", false, S.ERROR],
  ["CANCELED", "PAYMENT", false, S.CANCELED],
]

describe("gateway status → Medusa payment session status", () => {
  it.each(rows)("%s %s (shopper step pending: %s) → %s", (status, transactionType, awaitingShopper, expected) => {
    expect(medusaStatusFor({ status, transactionType, awaitingShopper })).toBe(expected)
  })

  it("covers every gateway status", () => {
    const covered = new Set(rows.map((r) => r[0]))
    expect([...covered].sort()).toEqual([...TRANSACTION_STATUSES].sort())
  })

  it("throws on a status the gateway does not document", () => {
    expect(() => medusaStatusFor({ status: "REVERSED" as never, transactionType: "AUTHORIZE", awaitingShopper: false })).toThrow(/Unhandled gateway status/)
  })

  it("refuses transaction types this provider never starts", () => {
    expect(gatewayTransactionType("PURCHASE")).toBe("PURCHASE")
    expect(gatewayTransactionType("PAYMENT")).toBe("PAYMENT")
    expect(() => gatewayTransactionType("PAYOUT")).toThrow(/PAYOUT/)
  })
})
