/**
 * POST /api/transactions/manage: CAPTURE, REFUND, VOID.
 *
 * Why management is never retried blindly: the spec gives these calls no idempotency (a repeated REFUND is a
 * second refund), and the Transaction object has no captured or refunded totals. So after a lost response
 * (network error after sending, timeout, 429, 5xx) we only repeat what the status endpoint can prove did not
 * happen:
 *   - VOID: the parent's status shows it. CANCELED → the void happened ("confirmed"); APPROVED or PENDING →
 *     it did not (or was declined): repeat once, with the same idempotency key. Anything else → unknown.
 *   - CAPTURE and REFUND: nothing in the status response changes when they succeed, so absence cannot be
 *     proven. We throw GatewayOutcomeUnknownError carrying what reconciliation needs instead of guessing.
 * Every call carries an idempotency key in `metadata.idempotency_key` (the caller's, e.g. Medusa's, or one
 * made before the first attempt); the management:* webhooks echo the metadata with parent_id, so a later
 * webhook settles an unknown outcome.
 * A request that surely never left this process (connection refused) is repeated by the requester as for any call.
 */
import { randomUUID } from "node:crypto"
import { manageRequest, type ManageRequest } from "../schemas/requests"
import { transaction, type Transaction, type TransactionSummary } from "../schemas/responses"
import { GatewayError, GatewayOutcomeUnknownError, type AnyGatewayError, type ManagementAttempt, GatewayProtocolError } from "../errors"
import { isTransient, neverSent } from "../retry"
import type { Operation, Requester } from "../requester"
import type { Status } from "./status"
import { TOKENIZATION_EVENT, type WebhookEvent } from "../schemas/webhooks"

export const MANAGE: Operation<typeof transaction> = {
  method: "POST",
  pattern: "/api/transactions/manage",
  kind: "manage",
  safety: "unsafe",
  request: manageRequest,
  response: transaction,
}

export const IDEMPOTENCY_METADATA_KEY = "idempotency_key"

export type ManageResult =
  /** The gateway answered: the management transaction (own id, parent_id = the original). */
  | { kind: "applied"; transaction: Transaction; idempotencyKey: string }
  /** The answer was lost, but the parent's status proves the operation happened (VOID → parent CANCELED). */
  | { kind: "confirmed"; parent: Transaction | TransactionSummary; idempotencyKey: string }

type ManageInput = Omit<ManageRequest, "transaction_type">

export class Modifications {
  constructor(
    private readonly requester: Requester,
    private readonly status: Status,
  ) {}

  capture(input: ManageInput, opts?: { idempotencyKey?: string }) {
    return this.manage({ ...input, transaction_type: "CAPTURE" }, opts)
  }
  refund(input: ManageInput, opts?: { idempotencyKey?: string }) {
    return this.manage({ ...input, transaction_type: "REFUND" }, opts)
  }
  void(input: ManageInput, opts?: { idempotencyKey?: string }) {
    return this.manage({ ...input, transaction_type: "VOID" }, opts)
  }

  async manage(input: ManageRequest, opts: { idempotencyKey?: string } = {}): Promise<ManageResult> {
    const idempotencyKey = opts.idempotencyKey ?? input.metadata?.[IDEMPOTENCY_METADATA_KEY] ?? randomUUID()
    const body: ManageRequest = { ...input, metadata: { ...input.metadata, [IDEMPOTENCY_METADATA_KEY]: idempotencyKey } }
    this.requester.validate(MANAGE, body)
    const attempt: ManagementAttempt = {
      transactionType: body.transaction_type,
      terminalId: body.terminal_id,
      reference: body.reference,
      parentTransactionId: body.parent_transaction_id ?? null,
      amount: body.amount,
      currency: body.currency,
      idempotencyKey,
    }
    let first: AnyGatewayError
    try {
      return { kind: "applied", transaction: await this.requester.call(MANAGE, { body }), idempotencyKey }
    } catch (error) {
      // A 2xx whose body we cannot read: the operation went through, but we cannot say as what. Never "failed".
      if (error instanceof GatewayProtocolError && error.statusCode !== null && error.statusCode !== undefined && error.statusCode < 300)
        throw unknown(attempt, error, `${attempt.transactionType} was answered 2xx with a body that does not match the spec`)
      if (!lostResponse(error)) throw error
      first = error
    }

    if (attempt.transactionType !== "VOID" || !attempt.parentTransactionId)
      throw unknown(attempt, first, `${attempt.transactionType} lost its response and the status endpoint cannot prove whether it happened`)

    const parent = await this.parentStatus(attempt, first)
    if (parent.status === "CANCELED") return { kind: "confirmed", parent, idempotencyKey }
    if (parent.status !== "APPROVED" && parent.status !== "PENDING")
      throw unknown(attempt, first, `VOID lost its response and the parent is ${parent.status}`)

    // Proven not to have happened: repeat once with the same key.
    try {
      return { kind: "applied", transaction: await this.requester.call(MANAGE, { body }), idempotencyKey }
    } catch (error) {
      if (!lostResponse(error)) throw error
      const again = await this.parentStatus(attempt, error)
      if (again.status === "CANCELED") return { kind: "confirmed", parent: again, idempotencyKey }
      throw unknown(attempt, error, "VOID lost its response twice")
    }
  }

  /** Only the status matters here, so the short status form is enough. */
  private async parentStatus(attempt: ManagementAttempt, cause: AnyGatewayError): Promise<Transaction | TransactionSummary> {
    try {
      const res = await this.status.retrieve(attempt.parentTransactionId!)
      if (res.found && res.transaction) return res.transaction
    } catch (error) {
      throw unknown(attempt, cause, `VOID lost its response and the parent status could not be read (${(error as Error).message})`)
    }
    throw unknown(attempt, cause, "VOID lost its response and the parent transaction was not found")
  }
}

/** The gateway may have acted and we did not hear back (not: refused outright, nor never sent). */
function lostResponse(error: unknown): error is AnyGatewayError {
  return error instanceof GatewayError && isTransient(error as AnyGatewayError) && !neverSent(error as AnyGatewayError)
}

function unknown(attempt: ManagementAttempt, cause: AnyGatewayError, why: string) {
  return new GatewayOutcomeUnknownError(
    `POST /api/transactions/manage: ${why}; not retried to avoid doing it twice. Reconcile with idempotency key ${attempt.idempotencyKey} (management webhooks carry it in metadata) before trying again`,
    attempt,
    { statusCode: cause.statusCode, requestId: cause.requestId, body: cause.body, operation: "POST /api/transactions/manage", cause },
  )
}

/**
 * Settles an unknown outcome later: does this verified webhook report the management attempt (same operation,
 * same original, our idempotency key in metadata)? Its `status` then says whether it happened.
 */
export function isManagementEventFor(event: WebhookEvent, attempt: ManagementAttempt): boolean {
  if (event.event === TOKENIZATION_EVENT || !event.event.startsWith("transaction-svc:transaction:management:")) return false
  const p = event.payload
  const sameOriginal = attempt.parentTransactionId ? p.parent_id === attempt.parentTransactionId : p.reference === attempt.reference
  return sameOriginal && p.transaction_type === attempt.transactionType && p.metadata?.[IDEMPOTENCY_METADATA_KEY] === attempt.idempotencyKey
}
