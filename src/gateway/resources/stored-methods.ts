/** DELETE /api/payment-methods/{id}: documented as idempotent, so safe to retry. Merchant credentials only. */
import { deletedPaymentMethodResponse, type DeletedPaymentMethodResponse } from "../schemas/responses"
import type { Operation, Requester } from "../requester"

export const DELETE_PAYMENT_METHOD: Operation<typeof deletedPaymentMethodResponse> = {
  method: "DELETE",
  pattern: "/api/payment-methods/{payment_method_id}",
  kind: "write",
  safety: "idempotent",
  response: deletedPaymentMethodResponse,
}

export class StoredMethods {
  constructor(private readonly requester: Requester) {}

  /** Deletes a stored card; later use is rejected with INVALID_REQUEST_PAYMENT_METHOD_INACTIVE. Cannot be undone. */
  delete(paymentMethodId: string): Promise<DeletedPaymentMethodResponse> {
    return this.requester.call(DELETE_PAYMENT_METHOD, { params: { payment_method_id: paymentMethodId } })
  }
}
