import { TRANSACTION_EVENTS, TOKENIZATION_EVENT } from "../../../gateway"
import { kindOf, managementOperationOf } from "../classify"
import { normalizeTokenization } from "../tokenization"

describe("which gateway events we act on", () => {
  it.each(TRANSACTION_EVENTS.map((e) => [e]))("%s has a kind", (event) => {
    expect(kindOf({ event, payload: {} } as never)).toMatch(/^(approval|failure|pending|management_approved|management_declined)$/)
  })

  it("reads approvals, declines and management outcomes from the names", () => {
    const k = (event: string) => kindOf({ event, payload: {} } as never)
    expect(k("transaction-svc:transaction:authorize:authorized")).toBe("approval")
    expect(k("transaction-svc:transaction:purchase:approved")).toBe("approval")
    expect(k("transaction-svc:transaction:authorized")).toBe("approval")
    expect(k("transaction-svc:transaction:purchase:declined")).toBe("failure")
    expect(k("transaction-svc:transaction:management:void:approved")).toBe("management_approved")
    expect(k(TOKENIZATION_EVENT)).toBe("tokenization")
  })

  it("takes the management operation from a specific name, else from transaction_type", () => {
    expect(managementOperationOf("transaction-svc:transaction:management:refund:approved", "CAPTURE")).toBe("REFUND")
    expect(managementOperationOf("transaction-svc:transaction:management:approved", "VOID")).toBe("VOID")
    expect(managementOperationOf("transaction-svc:transaction:management:approved", "PURCHASE")).toBeNull()
  })
})

describe("both tokenization payload forms", () => {
  const expected = { payment_method_id: "pm_1", gateway_customer_id: "cus_1", brand: "VISA", masked: "400000******1000", last_4: "1000", exp_month: 7, exp_year: 2031, transaction_id: "tx_1" }

  it("reads the documented nested form", () => {
    expect(
      normalizeTokenization({
        payment_method: { id: "pm_1", type: "card", card: { brand: "VISA", last_4: "1000", bin: "400000", masked: "400000******1000", exp_month: 7, exp_year: 2031 } },
        transaction_id: "tx_1",
        customer: { id: "cus_1", first_name: null, last_name: null, email: null },
        merchant_id: "m_1",
        created_at: "2026-01-01T00:00:00Z",
      }),
    ).toEqual(expected)
  })

  it("reads the flat data form, expiry given as strings", () => {
    expect(
      normalizeTokenization({
        data: { payment_method_id: "pm_1", payment_method_type: "card", card_brand: "VISA", card_last_4: "1000", card_masked: "400000******1000", card_exp_month: "7", card_exp_year: "2031", customer_id: "cus_1", transaction_id: "tx_1" },
      }),
    ).toEqual(expected)
  })
})
