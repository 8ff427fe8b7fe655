/** Small HTML helpers for the card pages (simulator, ACS, notification pages): plain forms a test can parse. */
import { escapeHtml, html, ReplyError, seeOther, type Reply } from "../core/http"
import type { TransactionRecord } from "../core/types"

export function page(title: string, body: string, status = 200): Reply {
  return html(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}` +
      `button{font-size:1rem;padding:.5rem 1rem;margin:.25rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dd{margin:0;min-width:0;overflow-wrap:anywhere}</style>` +
      `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    status,
  )
}

export const errorPage = (message: string, status = 400) => new ReplyError(page("3-D Secure error", `<p>${escapeHtml(message)}</p>`, status))

export const hiddenInputs = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("")

/** A form that posts itself on load (a browser moving on); without script a Continue button remains. */
export function autoSubmitForm(action: string, fields: Record<string, string>, id = "next"): string {
  return (
    `<form id="${id}" method="POST" action="${escapeHtml(action)}">${hiddenInputs(fields)}` +
    `<noscript><button type="submit">Continue</button></noscript></form>` +
    `<script>document.getElementById(${scriptValue(id)}).submit()</script>`
  )
}

/** A value safe to place inside <script>. */
export const scriptValue = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")

/** The merchant URL a finished transaction sends the browser to: return_url, or error/cancel URL when given. */
export function finishedTarget(tx: TransactionRecord): string | undefined {
  if (tx.status === "APPROVED") return tx.return_url
  if (tx.status === "CANCELED") return tx.cancel_url ?? tx.return_url
  return tx.error_url ?? tx.return_url
}

/** 303 to the merchant, or a plain result page when the transaction has no URL to go back to. */
export function backToMerchant(tx: TransactionRecord): Reply {
  const target = finishedTarget(tx)
  if (target) return seeOther(target)
  return page("Payment finished", `<p id="status">${escapeHtml(tx.status)}</p><p>Transaction ${escapeHtml(tx.id)}</p>`)
}

export function formValue(form: Record<string, string>, name: string): string {
  const value = form[name]
  if (value === undefined || value === "") throw errorPage(`the form field ${name} is missing`)
  return value
}

/** Base64 or Base64URL JSON from a form field (threeDSMethodData, creq, cres). */
export function decodeBase64Json(value: string, field: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64").toString("utf8"))
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>
  } catch {
    // fall through
  }
  throw errorPage(`${field} is not Base64 of a JSON object`)
}
