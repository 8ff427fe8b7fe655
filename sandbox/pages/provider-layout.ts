/** The plain HTML shell shared by the sandbox provider pages and the hosted payment page, and money display. */
import currencyCodes from "currency-codes"
import { escapeHtml } from "../core/http"

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.3rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#666}
form{display:inline-block;margin:.3rem .3rem 0 0}label{display:block;margin:.6rem 0 .2rem}
input,select{padding:.4rem;font-size:1rem}button{padding:.5rem 1rem;font-size:1rem;cursor:pointer}
.error{color:#b00020;background:#fdecea;padding:.5rem}.note{color:#666;font-size:.9rem}`

export function page(title: string, body: string, lang = "en"): string {
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`
}

/**
 * 1234 PLN → "12.34 PLN": the currency's ISO 4217 exponent (Intl's display digits differ: 0 for HUF, whose ISO
 * exponent is 2), 2 for a code ISO does not know. Exact: digits are shifted, never divided as a float.
 */
export function formatMoney(amountMinor: number, currency: string): string {
  const digits = currencyCodes.code(currency.toUpperCase())?.digits ?? 2
  const text = String(Math.abs(amountMinor)).padStart(digits + 1, "0")
  const major = digits ? `${text.slice(0, -digits)}.${text.slice(-digits)}` : text
  return `${amountMinor < 0 ? "-" : ""}${major} ${currency}`
}

/** A form that is one button: tests find it by its data-choice and POST its action. */
export const buttonForm = (action: string, choice: string, label: string, inner = "") =>
  `<form method="post" action="${escapeHtml(action)}" data-choice="${escapeHtml(choice)}">${inner}<button type="submit">${escapeHtml(label)}</button></form>`
