/**
 * The two 3-D Secure continuations. Their idempotency is not shown in the spec, so they are never repeated
 * after a lost response (retry.ts rule 4): the caller reads the status instead.
 */
import { authenticationCompletedRequest, requestAuthenticationRequest, type AuthenticationCompletedRequest, type RequestAuthenticationRequest } from "../schemas/requests"
import { executionResponse } from "../schemas/responses"
import { toExecutionResult, type ExecutionResult } from "../results"
import type { Operation, Requester } from "../requester"

export const REQUEST_AUTHENTICATION: Operation<typeof executionResponse> = {
  method: "POST",
  pattern: "/api/transactions/three-ds/{three_ds_server_trans_id}/request-authentication",
  kind: "write",
  safety: "unsafe",
  request: requestAuthenticationRequest,
  response: executionResponse,
}
export const AUTHENTICATION_COMPLETED: Operation<typeof executionResponse> = {
  method: "POST",
  pattern: "/api/transactions/three-ds/authentication-completed",
  kind: "write",
  safety: "unsafe",
  request: authenticationCompletedRequest,
  response: executionResponse,
}

export class ThreeDS {
  constructor(private readonly requester: Requester) {}

  /** After the fingerprint step: `fingerprint_result` is fingerprintResult(submitted) from three-ds helpers. */
  async requestAuthentication(threeDSServerTransId: string, body: RequestAuthenticationRequest): Promise<ExecutionResult> {
    const raw = await this.requester.call(REQUEST_AUTHENTICATION, { params: { three_ds_server_trans_id: threeDSServerTransId }, body })
    return toExecutionResult(raw, `POST ${REQUEST_AUTHENTICATION.pattern}`)
  }

  /** After an iframe challenge or a `cres` on an overridden notification URL. */
  async authenticationCompleted(body: AuthenticationCompletedRequest): Promise<ExecutionResult> {
    return toExecutionResult(await this.requester.call(AUTHENTICATION_COMPLETED, { body }), `POST ${AUTHENTICATION_COMPLETED.pattern}`)
  }
}
