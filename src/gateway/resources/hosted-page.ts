/** POST /api/hosted-payment-page. Idempotency and the response shape are not shown: not repeated blindly. */
import { hostedPaymentPageRequest, type HostedPaymentPageRequest } from "../schemas/requests"
import { hostedPaymentPageResponse, type HostedPaymentPageResponse } from "../schemas/responses"
import type { Operation, Requester } from "../requester"

export const CREATE_HOSTED_PAGE: Operation<typeof hostedPaymentPageResponse> = {
  method: "POST",
  pattern: "/api/hosted-payment-page",
  kind: "write",
  safety: "unsafe",
  request: hostedPaymentPageRequest,
  response: hostedPaymentPageResponse,
}

export class HostedPages {
  constructor(private readonly requester: Requester) {}

  create(body: HostedPaymentPageRequest): Promise<HostedPaymentPageResponse> {
    return this.requester.call(CREATE_HOSTED_PAGE, { body })
  }
}
