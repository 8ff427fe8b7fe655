/**
 * The simplified authentication simulator's pages: the Approve (Y) / Decline (N) page a redirect leads to, and the
 * completion URL both that page and a form_submit post trans_status to. It finalizes from what the sandbox recorded
 * (the card's scenario for a form submit; the choice on a page it showed for a redirect), then sends the browser back.
 */
import type { SandboxContext } from "../core/context"
import { escapeHtml, parseForm, type Router } from "../core/http"
import type { TransactionRecord } from "../core/types"
import { backToMerchant, errorPage, formValue, page } from "../cards/page-kit"
import type { TransStatus } from "../cards/flow"
import { completeSimplified, simplifiedTransaction, simulatorPageShown, type Simplified } from "../cards/simplified"
import { simulatorCompletionUrl } from "../cards/urls"
import { formatMoney } from "./provider-layout"

function transactionOf(ctx: SandboxContext, id: string): Simplified {
  const found = simplifiedTransaction(ctx, id)
  if (!found) throw errorPage("no transaction awaits the authentication simulator under this id", 404)
  return found
}

const amountText = (tx: TransactionRecord) => formatMoney(tx.amount, tx.currency)

export function registerSimulatorPages(router: Router, ctx: SandboxContext): void {
  router.add("GET", "/simulator/simplified/three-ds/:id", (req) => {
    const found = transactionOf(ctx, req.params.id)
    const { tx } = found
    if (tx.status !== "CREATED") return backToMerchant(tx)
    simulatorPageShown(found)
    const action = escapeHtml(simulatorCompletionUrl(ctx, tx.id))
    return page(
      "Authentication simulator",
      `<dl><dt>Amount</dt><dd>${escapeHtml(amountText(tx))}</dd><dt>Card</dt><dd>${escapeHtml(tx.payment_method?.masked ?? "unknown")}</dd>` +
        `<dt>Reference</dt><dd>${escapeHtml(tx.reference)}</dd></dl>` +
        `<form id="approve" method="POST" action="${action}"><input type="hidden" name="trans_status" value="Y"><button type="submit">Approve (Y)</button></form>` +
        `<form id="decline" method="POST" action="${action}"><input type="hidden" name="trans_status" value="N"><button type="submit">Decline (N)</button></form>`,
    )
  })

  router.add("POST", "/simulator/simplified/three-ds/:id/authentication-completed", (req) => {
    const found = transactionOf(ctx, req.params.id)
    const transStatus = formValue(parseForm(req), "trans_status")
    if (!/^[YNUACR]$/.test(transStatus)) throw errorPage("trans_status must be one of Y, N, U, A, C, R")
    if (completeSimplified(ctx, found, transStatus as TransStatus) === "page_not_shown")
      throw errorPage("the authentication page was never opened: the cardholder has not decided", 409)
    return backToMerchant(found.tx)
  })
}
