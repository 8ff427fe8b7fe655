/** GET /api/transactions/{id}/status: a read, so always safe to retry. */
import { statusResponse, type StatusResponse, type Transaction } from "../schemas/responses"
import { outcomeOf, type Outcome } from "../outcomes"
import type { Operation, Requester } from "../requester"

export const STATUS: Operation<typeof statusResponse> = {
  method: "GET",
  pattern: "/api/transactions/{id}/status",
  kind: "read",
  safety: "idempotent",
  response: statusResponse,
}

export class Status {
  constructor(private readonly requester: Requester) {}

  /** `{found: false, transaction: null}` for an unknown id. */
  retrieve(transactionId: string): Promise<StatusResponse> {
    return this.requester.call(STATUS, { params: { id: transactionId } })
  }

  /** The transaction with its named outcome, or null when the gateway does not know the id. */
  async transaction(transactionId: string): Promise<{ transaction: Transaction; outcome: Outcome } | null> {
    const { found, transaction } = await this.retrieve(transactionId)
    return found && transaction ? { transaction, outcome: outcomeOf(transaction) } : null
  }
}
