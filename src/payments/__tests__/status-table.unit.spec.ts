import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { TRANSACTION_STATUSES } from "../../gateway/schemas"
import {
  APPROVED_SESSION_STATUSES,
  FAILED_STATUSES,
  MEDUSA_ACCEPTED_AT_AUTHORIZE,
  UNSETTLED_SESSION_STATUSES,
  gatewayTransactionType,
  isFailedStatus,
  medusaStatusFor,
} from "../status-table"

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

describe("status sets read off the table", () => {
  it("final failures are the statuses that end a session in error or canceled", () => {
    expect([...FAILED_STATUSES].sort()).toEqual(["CANCELED", "DECLINED", "INVALID", "SESSION_EXPIRED"])
    expect(isFailedStatus("APPROVED")).toBe(false)
    expect(isFailedStatus("PENDING")).toBe(false)
    expect(isFailedStatus("not a status")).toBe(false)
  })

  it("unsettled sessions are what an open gateway status maps to", () => {
    expect([...UNSETTLED_SESSION_STATUSES].sort()).toEqual([S.PENDING, S.PENDING_AUTHORIZATION, S.REQUIRES_MORE].sort())
  })

  it("an approved payment is authorized or captured; Medusa also accepts pending_authorization at authorize", () => {
    expect([...APPROVED_SESSION_STATUSES].sort()).toEqual([S.AUTHORIZED, S.CAPTURED].sort())
    expect([...MEDUSA_ACCEPTED_AT_AUTHORIZE].sort()).toEqual([S.AUTHORIZED, S.CAPTURED, S.PENDING_AUTHORIZATION].sort())
  })
})
