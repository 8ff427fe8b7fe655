/**
 * A void made at the gateway (dashboard), recorded in Medusa as workflow steps, so a failure halfway leaves the
 * payment as it was and the retry records all of it (the retry decides from the payment's canceled_at: written
 * first, a failed collection update would never be retried):
 * 1. the order's payment collection shows canceled — undone if step 2 fails;
 * 2. the payment is marked canceled.
 */
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules, PaymentCollectionStatus } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, transform, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { setCollectionStatusStep } from "./collection-status-step"

export type ExternalVoidInput = { paymentId: string; collectionId: string }

export const markPaymentCanceledStep = createStep("pgs-mark-payment-canceled", async (input: { paymentId: string }, { container }) => {
  // canceled_at is written by the module's own cancelPayment; UpdatePaymentDTO does not list it.
  await container.resolve<IPaymentModuleService>(Modules.PAYMENT).updatePayment({ id: input.paymentId, canceled_at: new Date() } as { id: string })
  return new StepResponse(undefined)
})

export const recordExternalVoidWorkflow = createWorkflow("pgs-record-external-void", (input: ExternalVoidInput) => {
  const change = transform({ input }, ({ input }) => ({ collectionId: input.collectionId, status: PaymentCollectionStatus.CANCELED }))
  setCollectionStatusStep(change)
  markPaymentCanceledStep(input)
  return new WorkflowResponse(undefined)
})
