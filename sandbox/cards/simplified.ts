/**
 * The simplified authentication simulator: the redirect to the Approve/Decline page and the form_submit that
 * posts trans_status straight to the completion URL. Both end at `completeSimplified`, which finalizes.
 */
import type { ExecutionResponse } from "../schemas"
import type { SandboxContext } from "../core/context"
import { newUuid } from "../core/ids"
import type { TransactionRecord } from "../core/types"
import { formSubmitResponse, redirectResponse } from "../core/views"
import { cardFlow, type CardFlow } from "./flow"
import { authenticatedAs, authorizeCard } from "./outcome"
import { simulatorCompletionUrl, simulatorPageUrl } from "./urls"

export function simplifiedRedirect(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow): ExecutionResponse {
  const session_id = newUuid()
  flow.three_ds = { mode: "simplified", session_id }
  flow.pending = redirectResponse({ transaction_id: tx.id, session_id, url: simulatorPageUrl(ctx, tx.id) })
  return flow.pending
}

export function simplifiedFormSubmit(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow, transStatus: string): ExecutionResponse {
  const session_id = newUuid()
  flow.three_ds = { mode: "simplified", session_id }
  flow.pending = formSubmitResponse({
    transaction_id: tx.id,
    session_id,
    url: simulatorCompletionUrl(ctx, tx.id),
    data: { trans_status: transStatus },
  })
  return flow.pending
}

/** A transaction waiting at the simplified simulator, if `id` names one. */
export function simplifiedTransaction(ctx: SandboxContext, id: string): TransactionRecord | undefined {
  const tx = ctx.store.transactions.get(id)
  return tx && cardFlow(tx)?.three_ds?.mode === "simplified" ? tx : undefined
}

/** The simulator page posted its trans_status: authenticate, authorize. A finished transaction stays as it is. */
export function completeSimplified(ctx: SandboxContext, tx: TransactionRecord, transStatus: "Y" | "N" | "U" | "A" | "C" | "R"): void {
  if (tx.status !== "CREATED") return
  authorizeCard(ctx, tx, authenticatedAs(transStatus))
}
