/**
 * The sandbox provider page a redirect transaction sends the customer to: GET {base}/provider/{id} shows what is
 * being paid and one form per choice (Approve, Decline, Cancel, and Leave pending for bank journeys). Each form
 * POSTs {base}/provider/{id}/{choice}; the choice finishes the transaction through the store (which sends the
 * webhook) and answers 303 to the merchant URL for the new state.
 */
import type { SandboxContext } from "../core/context"
import { escapeHtml, html, seeOther, type Reply, type Router, type SandboxRequest, parseForm } from "../core/http"
import type { TransactionRecord } from "../core/types"
import { FINAL_STATUSES } from "../schemas"
import {
  choicesFor,
  providerFlowOf,
  returnTarget,
  STATUS_FOR_CHOICE,
  type ProviderChoice,
  type ProviderFlow,
} from "../apm/provider-flow"
import { buttonForm, formatMoney, page } from "./provider-layout"

const LABELS: Record<ProviderChoice, string> = { approve: "Approve", decline: "Decline", cancel: "Cancel", pending: "Leave pending" }
const SCHEME_CODE = /^\d{6}$/

function notFoundPage(): Reply {
  return html(page("Not found", "<h1>Unknown payment</h1><p>No redirect payment has this id.</p>"), 404)
}

function render(tx: TransactionRecord, flow: ProviderFlow, error?: string, status = 200): Reply {
  const facts = `<dl><dt>Pay</dt><dd data-amount>${escapeHtml(formatMoney(tx.amount, tx.currency))}</dd>
<dt>For</dt><dd>${escapeHtml(tx.description)}</dd><dt>Reference</dt><dd>${escapeHtml(tx.reference)}</dd>
<dt>Method</dt><dd data-method>${escapeHtml(flow.method)}</dd><dt>Status</dt><dd data-status>${escapeHtml(tx.status)}</dd></dl>`
  const intro = `<h1>Sandbox payment provider</h1><p class="note">Choose what the provider does with this payment.</p>`
  if (FINAL_STATUSES.has(tx.status)) {
    const target = returnTarget(tx)
    const back = target ? `<p><a href="${escapeHtml(target)}">Return to the merchant</a></p>` : ""
    return html(page("Payment finished", `${intro}${facts}<p>This payment is already ${escapeHtml(tx.status)}.</p>${back}`), status)
  }
  const base = `/provider/${encodeURIComponent(tx.id)}`
  const schemeInput = flow.needs_scheme_code
    ? `<label for="scheme_code">Scheme code (6 digits)</label><input id="scheme_code" name="scheme_code" inputmode="numeric" pattern="\\d{6}" maxlength="6" required>`
    : ""
  const forms = choicesFor(flow)
    .map((choice) => buttonForm(`${base}/${choice}`, choice, LABELS[choice], choice === "approve" ? schemeInput : ""))
    .join("\n")
  const err = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""
  return html(page("Sandbox payment provider", `${intro}${facts}${err}${forms}`), status)
}

function lookup(ctx: SandboxContext, req: SandboxRequest): { tx: TransactionRecord; flow: ProviderFlow } | null {
  const tx = ctx.store.transactions.get(req.params.id)
  const flow = tx && providerFlowOf(tx)
  return tx && flow ? { tx, flow } : null
}

function decide(ctx: SandboxContext, req: SandboxRequest): Reply {
  const found = lookup(ctx, req)
  if (!found) return notFoundPage()
  const { tx, flow } = found
  const choice = req.params.choice as ProviderChoice
  if (!choicesFor(flow).includes(choice))
    return html(page("Not offered", `<h1>Not offered</h1><p>"${escapeHtml(choice)}" is not a choice for ${escapeHtml(flow.method)}.</p>`), 404)
  const done = () => {
    const target = returnTarget(tx)
    return target ? seeOther(target) : render(tx, flow)
  }
  // A second submit (back button, double click) finds the payment finished: already done is success.
  if (FINAL_STATUSES.has(tx.status)) return done()
  if (choice === "approve" && flow.needs_scheme_code) {
    const code = (parseForm(req).scheme_code ?? "").trim()
    if (!SCHEME_CODE.test(code)) return render(tx, flow, "The scheme code must be exactly 6 digits.", 422)
    flow.scheme_code = code
  }
  // "Leave pending" changes nothing: a bank journey abandoned half-way stays PENDING and is never canceled automatically.
  if (choice !== "pending") ctx.store.setStatus(tx, STATUS_FOR_CHOICE[choice])
  return done()
}

export function registerProviderPages(router: Router, ctx: SandboxContext): void {
  router.add("GET", "/provider/:id", (req) => {
    const found = lookup(ctx, req)
    return found ? render(found.tx, found.flow) : notFoundPage()
  })
  router.add("POST", "/provider/:id/:choice", (req) => decide(ctx, req))
}
