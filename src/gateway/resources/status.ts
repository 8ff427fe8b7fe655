/** GET /api/transactions/{id}/status: a read, so always safe to retry. */
import { GatewayProtocolError } from "../errors"
import { isFullTransaction, statusResponse, type StatusResponse, type Transaction } from "../schemas/responses"
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

  /** `{found: false, transaction: null}` for an unknown id; `transaction` may be the full object or the short form. */
  retrieve(transactionId: string): Promise<StatusResponse> {
    return this.requester.call(STATUS, { params: { id: transactionId } })
  }

  /**
   * The full transaction with its named outcome, or null when the gateway does not know the id. Callers use this
   * to check reference, terminal, amount and currency, which the short form lacks: it is refused, never guessed.
   */
  async transaction(transactionId: string): Promise<{ transaction: Transaction; outcome: Outcome } | null> {
    const { found, transaction } = await this.retrieve(transactionId)
    if (!found || !transaction) return null
    if (!isFullTransaction(transaction))
      throw new GatewayProtocolError(
        `GET /api/transactions/{id}/status answered the short form (id, status, amount, currency); the full transaction is needed to verify it`,
        [],
        { operation: "GET /api/transactions/{id}/status", body: transaction },
      )
    return { transaction, outcome: outcomeOf(transaction) }
  }
}
