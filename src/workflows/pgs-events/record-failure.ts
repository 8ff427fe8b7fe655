/**
 * A decline, cancel or expiry applied as workflow steps, so a failure halfway leaves Medusa as it was and the
 * retry applies all of it. Without that, a session already marked failed would hide from the retry that the
 * order's payment still shows "awaiting" (the retry decides from the session's status).
 * 1. an order awaiting this payment shows it failed (or canceled) on its payment collection — undone if step 2 fails;
 * 2. the provider records the transaction on the session, with the failed status. It is last because it cannot be
 *    undone exactly: Medusa merges session data on update, so keys it added would stay.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { PaymentCollectionStatus, PaymentSessionStatus } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse, when } from "@medusajs/framework/workflows-sdk"
import { recordTransaction } from "./attach"
import { setCollectionStatusStep, type CollectionStatusChange } from "./collection-status-step"
import type { SessionView } from "./lookup"

export type RecordFailureInput = {
  session: SessionView
  transactionId: string
  status: PaymentSessionStatus
  /** An order awaits this payment: its payment collection, and what it is to show. */
  awaitingOrder: CollectionStatusChange | null
}

export const recordFailureOnSessionStep = createStep(
  "pgs-record-failure-on-session",
  async (input: Pick<RecordFailureInput, "session" | "transactionId" | "status">, { container }) => {
    // The provider re-reads the transaction, checks it belongs to the session and writes its status and the
    // shopper-safe reason (no gateway write: the amount is unchanged).
    await recordTransaction(container as MedusaContainer, input.session, input.transactionId, input.status)
    return new StepResponse(undefined)
  },
)

export const recordPaymentFailureWorkflow = createWorkflow("pgs-record-payment-failure", (input: RecordFailureInput) => {
  when(input, (i) => !!i.awaitingOrder).then(() => {
    setCollectionStatusStep(input.awaitingOrder as unknown as CollectionStatusChange)
  })
  recordFailureOnSessionStep(input)
  return new WorkflowResponse(undefined)
})

/** What the order's payment collection shows for a failed session status. */
export const collectionStatusFor = (status: PaymentSessionStatus) =>
  status === PaymentSessionStatus.CANCELED ? PaymentCollectionStatus.CANCELED : PaymentCollectionStatus.FAILED
