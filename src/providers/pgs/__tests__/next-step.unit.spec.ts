import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { outcomeOf, type ExecutionResult, type Transaction } from "../../../gateway"
import { stepOutcome } from "../next-step"

/** A transaction as the status endpoint or a repeated request returns it (only the fields stepOutcome reads matter). */
const transaction = (fields: Partial<Transaction>): Transaction =>
  ({ id: "trx_1", status: "PENDING", transaction_type: "PAYMENT", processing_code: "1002", response_message: "Pending", redirect_url: null, ...fields }) as Transaction

const finished = (tx: Transaction): ExecutionResult =>
  ({ kind: "finished", transaction: tx, outcome: outcomeOf(tx), transactionId: tx.id, raw: { result: tx, action: null, redirect: null, form_submit: null } }) as ExecutionResult

describe("execution result → next step", () => {
  it("sends the shopper to the redirect_url of an open transaction returned as a result (a repeated reference)", () => {
    const step = stepOutcome(finished(transaction({ redirect_url: "https://provider.example/pay/1" })), "PAYMENT")
    expect(step.status).toBe(PaymentSessionStatus.REQUIRES_MORE)
    expect(step.patch).toMatchObject({ transaction_id: "trx_1", gateway_status: "PENDING", next_action: { type: "redirect", url: "https://provider.example/pay/1" } })
  })

  it("treats an open transaction without a redirect_url as waiting on the provider (pending_authorization)", () => {
    const step = stepOutcome(finished(transaction({})), "PAYMENT")
    expect(step.status).toBe(PaymentSessionStatus.PENDING_AUTHORIZATION)
    expect(step.patch.next_action).toBeNull()
  })

  it("ignores a redirect_url left on a final transaction", () => {
    const step = stepOutcome(finished(transaction({ status: "APPROVED", processing_code: "0000", redirect_url: "https://provider.example/pay/1" })), "PAYMENT")
    expect(step.status).toBe(PaymentSessionStatus.CAPTURED)
  })
})
