/** POST /api/customers. No reference, so no idempotency: never repeated after a lost response. */
import { createCustomerRequest, type CreateCustomerRequest } from "../schemas/requests"
import { customerResponse, type CustomerResponse } from "../schemas/responses"
import type { Operation, Requester } from "../requester"

export const CREATE_CUSTOMER: Operation<typeof customerResponse> = {
  method: "POST",
  pattern: "/api/customers",
  kind: "write",
  safety: "unsafe",
  request: createCustomerRequest,
  response: customerResponse,
}

export class Customers {
  constructor(private readonly requester: Requester) {}

  /** The returned `id` goes into `customer.id` of later transactions to attach saved cards. */
  create(body: CreateCustomerRequest): Promise<CustomerResponse> {
    return this.requester.call(CREATE_CUSTOMER, { body })
  }
}
