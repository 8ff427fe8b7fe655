/** Client-key authentication of the embedded-fields API: the public key must belong to the merchant owning the session. */
import type { SandboxContext } from "../core/context"
import { json, ReplyError, unauthorized, type SandboxRequest } from "../core/http"
import type { Merchant, PaymentSessionRecord, TransactionRecord } from "../core/types"

export function requireClientSession(ctx: SandboxContext, req: SandboxRequest): { merchant: Merchant; session: PaymentSessionRecord } {
  const key = req.headers["x-client-key"]
  const merchant = typeof key === "string" && key !== "" ? ctx.merchantByClientKey(key) : undefined
  if (!merchant) throw unauthorized()
  const session = ctx.store.sessions.get(req.params.id)
  // Another merchant's session answers like a missing one, so keys cannot probe session ids.
  if (!session || session.merchant_id !== merchant.merchant_id) throw new ReplyError(json(404, { error: "Session not found" }))
  return { merchant, session }
}

/** A transaction started from this session, or 404. */
export function sessionTransaction(ctx: SandboxContext, session: PaymentSessionRecord, id: string): TransactionRecord {
  const tx = session.transaction_ids.includes(id) ? ctx.store.transactions.get(id) : undefined
  if (!tx) throw new ReplyError(json(404, { error: "Transaction not found for this session" }))
  return tx
}

/**
 * A session can be paid once. Assumption (not shown in the spec): a declined, canceled or abandoned attempt may
 * be retried with another card; only an APPROVED transaction closes the session.
 */
export function assertSessionOpen(ctx: SandboxContext, session: PaymentSessionRecord): void {
  // The session's reference may already name a Direct API transaction on this terminal: never pay over it.
  const named = ctx.store.findByReference(session.merchant_id, session.terminal_id, session.reference)
  if (named && !session.transaction_ids.includes(named.id))
    throw new ReplyError(
      json(409, { error: "REFERENCE_IN_USE", message: "The session's reference already names another transaction on this terminal" }),
    )
  const approved = session.transaction_ids.map((id) => ctx.store.transactions.get(id)).find((tx) => tx?.status === "APPROVED")
  if (approved)
    throw new ReplyError(
      json(409, { error: "SESSION_ALREADY_PAID", message: "This session is already paid", transaction_id: approved.id }),
    )
}
