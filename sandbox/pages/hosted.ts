/**
 * The hosted payment page: GET {base}/hpp/{id} shows the card form in the page's language; POST .../pay starts the
 * card transaction (integration type HOSTED_PAYMENT_PAGE) and follows its execution response in the browser;
 * POST .../cancel sends the shopper to cancel_url; .../three-ds continues after the device fingerprint;
 * .../return is where 3-D Secure pages send the browser back.
 */
import type { ExecutionResponse } from "../schemas"
import { FINAL_STATUSES } from "../schemas"
import { hostedPageStatus, markCanceled } from "../apm/hosted-payment-page"
import { startCardTransaction } from "../cards/start"
import { checkTerminal, type SandboxContext } from "../core/context"
import { escapeHtml, html, parseForm, seeOther, type Reply, type Router, type SandboxRequest } from "../core/http"
import type { HostedPageRecord, Merchant, Terminal } from "../core/types"
import { readHostedForm, type HostedFormError } from "./hosted-form"
import { afterFingerprint, challengeData, fingerprintPage } from "./hosted-three-ds"
import { labelsFor, type HostedLabels } from "./hosted-labels"
import { formatMoney, page as shell } from "./provider-layout"

export const HPP_PAY_OPERATION = "POST /hpp/:id/pay"

const pagePath = (p: HostedPageRecord) => `/hpp/${encodeURIComponent(p.id)}`

function terminalOf(ctx: SandboxContext, p: HostedPageRecord): { merchant: Merchant; terminal: Terminal | null } | null {
  const merchant = ctx.merchants.get(p.merchant_id)
  if (!merchant) return null
  const check = checkTerminal(merchant, p.terminal_id, { feature: `TRX_TYPE_${p.transaction_type}`, method: "card" })
  return { merchant, terminal: "terminal" in check ? check.terminal : null }
}

/** Instalments are offered when the terminal has them or the merchant asked for them on this page. */
const offersInstalments = (terminal: Terminal | null, p: HostedPageRecord) =>
  Boolean(terminal?.features.includes("INSTALMENTS") || p.options.number_of_instalments)

/**
 * Where the shopper goes once the page is done, by the transaction's status. Assumption: a transaction still
 * PENDING at that point goes to success_url like an approval; the merchant confirms by webhook or status.
 */
function outcomeUrl(ctx: SandboxContext, p: HostedPageRecord): string | null {
  if (hostedPageStatus(p) === "CANCELED") return p.cancel_url
  const tx = p.transaction_id ? ctx.store.transactions.get(p.transaction_id) : undefined
  if (!tx) return null
  switch (tx.status) {
    case "CREATED":
      // Still authenticating (the shopper came back early): no outcome yet.
      return null
    case "APPROVED":
    case "PENDING":
      return p.success_url
    case "CANCELED":
      return p.cancel_url
    default:
      return p.error_url
  }
}

function form(p: HostedPageRecord, terminal: Terminal | null, errors: HostedFormError[] = [], status = 200): Reply {
  const t = labelsFor(p.language)
  const field = (name: string, label: string, attrs: string) =>
    `<label for="${name}">${escapeHtml(label)}</label><input id="${name}" name="${name}" ${attrs}>`
  const instalments = offersInstalments(terminal, p)
    ? `<label for="number_of_instalments">${escapeHtml(t.instalments)}</label><select id="number_of_instalments" name="number_of_instalments">
<option value="">${escapeHtml(t.no_instalments)}</option>${[1, 2, 3, 4, 5, 6]
        .map((n) => `<option value="${n}"${p.options.number_of_instalments === n ? " selected" : ""}>${n}</option>`)
        .join("")}</select>`
    : ""
  const cvv = p.options.cvv_less ? "" : field("cvv", t.cvv, `inputmode="numeric" autocomplete="cc-csc" maxlength="4" required`)
  const errorList = errors.length
    ? `<div class="error" role="alert">${errors.map((e) => `<p data-error="${e}">${escapeHtml(t[e])}</p>`).join("")}</div>`
    : ""
  // The screen fields of browser_info come from the shopper's browser; the server has defaults without script.
  const browserScript = `<script>for (const [k, v] of Object.entries({color_depth: screen.colorDepth, screen_height: screen.height,
screen_width: screen.width, time_zone_offset: new Date().getTimezoneOffset(), browser_language: navigator.language}))
document.querySelector('[name="' + k + '"]').value = v</script>`
  const hidden = ["color_depth", "screen_height", "screen_width", "time_zone_offset", "browser_language"]
    .map((n) => `<input type="hidden" name="${n}" value="">`)
    .join("")
  const body = `<h1>${escapeHtml(t.title)}</h1>
<dl><dt>${escapeHtml(t.amount)}</dt><dd data-amount>${escapeHtml(formatMoney(p.amount, p.currency))}</dd><dt></dt><dd>${escapeHtml(p.description)}</dd></dl>
${errorList}
<form method="post" action="${pagePath(p)}/pay" data-choice="pay">
${field("card_number", t.card_number, `inputmode="numeric" autocomplete="cc-number" required`)}
${instalments}
${field("expiry_month", t.expiry_month, `inputmode="numeric" autocomplete="cc-exp-month" maxlength="2" required`)}
${field("expiry_year", t.expiry_year, `inputmode="numeric" autocomplete="cc-exp-year" maxlength="4" required`)}
${cvv}${hidden}
<p><button type="submit">${escapeHtml(t.pay)}</button></p></form>
<form method="post" action="${pagePath(p)}/cancel" data-choice="cancel"><button type="submit">${escapeHtml(t.cancel)}</button></form>
${browserScript}`
  return html(shell(t.title, body, p.language), status)
}

const message = (t: HostedLabels, p: HostedPageRecord, text: string, status = 200) =>
  html(shell(t.title, `<h1>${escapeHtml(t.title)}</h1><p>${escapeHtml(text)}</p>`, p.language), status)

/** An auto-submitting form: what a browser does with form_submit (and with the challenge of a full-page 3-D Secure). */
function autoSubmit(url: string, data: Record<string, string>): Reply {
  const inputs = Object.entries(data)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("")
  return html(
    shell(
      "Redirecting",
      `<form id="next" method="post" action="${escapeHtml(url)}" data-choice="continue">${inputs}<noscript><button type="submit">Continue</button></noscript></form>
<script>document.getElementById("next").submit()</script>`,
    ),
  )
}

function follow(ctx: SandboxContext, p: HostedPageRecord, response: ExecutionResponse): Reply {
  if (response.redirect) return seeOther(response.redirect.url)
  if (response.form_submit) return autoSubmit(response.form_submit.url, response.form_submit.data)
  if (response.action?.type === "THREE_DS_2_CHALLENGE") {
    const challenge = challengeData(response.action)
    return autoSubmit(challenge.url, challenge.data)
  }
  if (response.action) return fingerprintPage(ctx, p, response.action)
  const target = outcomeUrl(ctx, p)
  return target ? seeOther(target) : message(labelsFor(p.language), p, labelsFor(p.language).processing)
}

function lookup(ctx: SandboxContext, req: SandboxRequest): HostedPageRecord | undefined {
  return ctx.store.hostedPages.get(req.params.id)
}

const unknownPage = () => html(shell("Not found", "<h1>Unknown payment page</h1>"), 404)

/** A page already used (paid, failed or canceled) answers with where its shopper belongs. */
function finished(ctx: SandboxContext, p: HostedPageRecord): Reply | null {
  if (hostedPageStatus(p) === "CREATED") return null
  const target = outcomeUrl(ctx, p)
  const tx = p.transaction_id ? ctx.store.transactions.get(p.transaction_id) : undefined
  if (tx && !FINAL_STATUSES.has(tx.status)) return message(labelsFor(p.language), p, labelsFor(p.language).processing)
  return target ? seeOther(target) : message(labelsFor(p.language), p, labelsFor(p.language).not_available, 410)
}

function show(ctx: SandboxContext, req: SandboxRequest): Reply {
  const p = lookup(ctx, req)
  if (!p) return unknownPage()
  return finished(ctx, p) ?? form(p, terminalOf(ctx, p)?.terminal ?? null)
}

function pay(ctx: SandboxContext, req: SandboxRequest): Reply {
  const p = lookup(ctx, req)
  if (!p) return unknownPage()
  const done = finished(ctx, p)
  if (done) return done
  const owner = terminalOf(ctx, p)
  // The terminal was switched off after the page was created: nothing can be paid here any more.
  if (!owner?.terminal) return message(labelsFor(p.language), p, labelsFor(p.language).not_available, 409)
  // References are unique per terminal: a transaction made elsewhere with this reference since blocks the page.
  if (ctx.store.findByReference(p.merchant_id, p.terminal_id, p.reference))
    return message(labelsFor(p.language), p, labelsFor(p.language).not_available, 409)
  const submitted = readHostedForm(
    parseForm(req),
    { cvv_less: Boolean(p.options.cvv_less), instalments: offersInstalments(owner.terminal, p) },
    {
      userAgent: String(req.headers["user-agent"] ?? ""),
      accept: String(req.headers.accept ?? ""),
      language: String(req.headers["accept-language"] ?? "").split(",")[0],
    },
  )
  if ("errors" in submitted) return form(p, owner.terminal, submitted.errors, 422)

  const back = `${ctx.urls.base}${pagePath(p)}/return`
  const response = startCardTransaction(
    ctx,
    {
      merchant: owner.merchant,
      terminal: owner.terminal,
      reference: p.reference,
      description: p.description,
      amount: p.amount,
      currency: p.currency,
      transaction_type: p.transaction_type,
      credential: { kind: "card", card: submitted.card },
      integration_type: "HOSTED_PAYMENT_PAGE",
      metadata: p.metadata,
      customer: p.customer,
      browser_info: submitted.browser_info,
      customer_ip: req.remoteAddress,
      originator_url: owner.terminal.website,
      // 3-D Secure pages bring the shopper back here; the page then picks success, error or cancel URL.
      return_url: back,
      error_url: back,
      cancel_url: back,
      session_id: p.id,
      number_of_instalments: submitted.number_of_instalments,
      skip_three_ds: Boolean(p.options.skip_three_ds),
    },
    HPP_PAY_OPERATION,
  )
  p.transaction_id =
    response.result?.id ?? response.redirect?.transaction_id ?? response.form_submit?.transaction_id ?? response.action?.transaction_id ?? null
  return follow(ctx, p, response)
}

function cancel(ctx: SandboxContext, req: SandboxRequest): Reply {
  const p = lookup(ctx, req)
  if (!p) return unknownPage()
  const tx = p.transaction_id ? ctx.store.transactions.get(p.transaction_id) : undefined
  if (tx && FINAL_STATUSES.has(tx.status)) return seeOther(outcomeUrl(ctx, p) ?? p.cancel_url)
  if (tx) ctx.store.setStatus(tx, "CANCELED")
  else markCanceled(p)
  return seeOther(p.cancel_url)
}

function threeDs(ctx: SandboxContext, req: SandboxRequest): Reply {
  const p = lookup(ctx, req)
  if (!p) return unknownPage()
  const next = afterFingerprint(ctx, p, parseForm(req).fingerprint ?? "N")
  return next ? follow(ctx, p, next) : show(ctx, req)
}

function back(ctx: SandboxContext, req: SandboxRequest): Reply {
  const p = lookup(ctx, req)
  if (!p) return unknownPage()
  const target = outcomeUrl(ctx, p)
  return target ? seeOther(target) : show(ctx, req)
}

export function registerHostedPages(router: Router, ctx: SandboxContext): void {
  router.add("GET", "/hpp/:id", (req) => show(ctx, req))
  router.add("POST", "/hpp/:id/pay", (req) => pay(ctx, req))
  router.add("POST", "/hpp/:id/cancel", (req) => cancel(ctx, req))
  router.add("POST", "/hpp/:id/three-ds", (req) => threeDs(ctx, req))
  router.add("GET", "/hpp/:id/return", (req) => back(ctx, req))
  router.add("POST", "/hpp/:id/return", (req) => back(ctx, req))
}
