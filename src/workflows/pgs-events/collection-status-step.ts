/**
 * Sets a payment collection's status, and puts the one it had back when a later step of the same workflow fails
 * (the status is a plain column: it can be undone exactly).
 */
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { Modules, type PaymentCollectionStatus } from "@medusajs/framework/utils"
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"

export type CollectionStatusChange = { collectionId: string; status: PaymentCollectionStatus }

export const setCollectionStatusStep = createStep(
  "pgs-set-payment-collection-status",
  async (input: CollectionStatusChange, { container }) => {
    const payment = container.resolve<IPaymentModuleService>(Modules.PAYMENT)
    const [before] = await payment.listPaymentCollections({ id: input.collectionId }, { select: ["id", "status"] })
    await payment.updatePaymentCollections(input.collectionId, { status: input.status })
    return new StepResponse(undefined, before ? { id: before.id, status: before.status } : undefined)
  },
  async (before, { container }) => {
    if (!before) return
    await container.resolve<IPaymentModuleService>(Modules.PAYMENT).updatePaymentCollections(before.id, { status: before.status })
  },
)
