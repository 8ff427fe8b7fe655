/**
 * The simplified authentication simulator: the redirect to the Approve/Decline page and the form_submit that
 * posts trans_status straight to the completion URL. Both end at `completeSimplified`, which finalizes from what
 * the sandbox recorded, never from the posted value alone (docs/assumptions.md).
 */
import type { ExecutionResponse } from "../schemas"
import type { SandboxContext } from "../core/context"
import { newUuid } from "../core/ids"
import type { TransactionRecord } from "../core/types"
import { formSubmitResponse, redirectResponse } from "../core/views"
import { cardFlow, type CardFlow, type SimplifiedThreeDs, type TransStatus } from "./flow"
import { authenticatedAs, authorizeCard } from "./outcome"
import { simulatorCompletionUrl, simulatorPageUrl } from "./urls"

export function simplifiedRedirect(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow): ExecutionResponse {
  const session_id = newUuid()
  flow.three_ds = { mode: "simplified", session_id, step: "redirect", page_shown: false }
  flow.pending = redirectResponse({ transaction_id: tx.id, session_id, url: simulatorPageUrl(ctx, tx.id) })
  return flow.pending
}

export function simplifiedFormSubmit(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow, transStatus: TransStatus): ExecutionResponse {
  const session_id = newUuid()
  flow.three_ds = { mode: "simplified", session_id, step: "form_submit", trans_status: transStatus }
  flow.pending = formSubmitResponse({
    transaction_id: tx.id,
    session_id,
    url: simulatorCompletionUrl(ctx, tx.id),
    data: { trans_status: transStatus },
  })
  return flow.pending
}

export type Simplified = { tx: TransactionRecord; state: SimplifiedThreeDs }

/** A transaction waiting at the simplified simulator, if `id` names one. */
export function simplifiedTransaction(ctx: SandboxContext, id: string): Simplified | undefined {
  const tx = ctx.store.transactions.get(id)
  const state = tx && cardFlow(tx)?.three_ds
  return tx && state?.mode === "simplified" ? { tx, state } : undefined
}

/** The simulator page was shown to the cardholder: from now on its Approve / Decline decides. */
export function simulatorPageShown({ state }: Simplified): void {
  if (state.step === "redirect") state.page_shown = true
}

/**
 * A post to the completion URL: authenticate, authorize. A form submit ends as its scenario set, whatever was posted;
 * a redirect's page posts the cardholder's choice, refused when that page was never shown. A finished
 * transaction stays as it is.
 */
export function completeSimplified(ctx: SandboxContext, { tx, state }: Simplified, posted: TransStatus): "done" | "page_not_shown" {
  if (tx.status !== "CREATED") return "done"
  if (state.step === "redirect" && !state.page_shown) return "page_not_shown"
  authorizeCard(ctx, tx, authenticatedAs(state.step === "form_submit" ? state.trans_status : posted))
  return "done"
}
