/** GET /embedded/api/sessions/:id — what the frame needs to draw the form (never the merchant's secrets). */
import type { SandboxContext } from "../core/context"
import { json, type Reply, type SandboxRequest } from "../core/http"
import { requireClientSession, sessionTransaction } from "./client-session"
import { MAX_INSTALMENTS } from "./instalments"
import { transactionView } from "../core/views"

export function sessionInfo(ctx: SandboxContext, req: SandboxRequest): Reply {
  const { merchant, session } = requireClientSession(ctx, req)
  const terminal = merchant.terminals.find((t) => t.terminal_id === session.terminal_id)
  const paid = session.transaction_ids.some((id) => ctx.store.transactions.get(id)?.status === "APPROVED")
  return json(200, {
    id: session.id,
    amount: session.amount,
    currency: session.currency,
    transaction_type: session.transaction_type,
    paid,
    instalments: { enabled: Boolean(terminal?.features.includes("INSTALMENTS")), max: MAX_INSTALMENTS },
    fingerprint_wait_ms: ctx.options.fingerprintWaitMs,
  })
}

/** GET /embedded/api/sessions/:id/transactions/:tx — the frame reads the outcome after a redirect or form step. */
export function sessionTransactionStatus(ctx: SandboxContext, req: SandboxRequest): Reply {
  const { session } = requireClientSession(ctx, req)
  return json(200, { transaction: transactionView(sessionTransaction(ctx, session, req.params.tx)) })
}
