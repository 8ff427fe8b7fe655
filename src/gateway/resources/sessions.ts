/** POST /api/sessions: the Embedded Fields session. Idempotent by (terminal, reference) like authorize. */
import { sessionRequest, type SessionRequest } from "../schemas/requests"
import { sessionResponse, type SessionResponse } from "../schemas/responses"
import type { Operation, Requester } from "../requester"

export const CREATE_SESSION: Operation<typeof sessionResponse> = {
  method: "POST",
  pattern: "/api/sessions",
  kind: "write",
  safety: "idempotent",
  request: sessionRequest,
  response: sessionResponse,
}

export class Sessions {
  constructor(private readonly requester: Requester) {}

  create(body: SessionRequest): Promise<SessionResponse> {
    return this.requester.call(CREATE_SESSION, { body })
  }
}
