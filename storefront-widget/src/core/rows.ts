/** The accordion's rows: one per method, with its radio, icon and name; built once, repainted on every state. */
import { h } from "./dom.js"
import type { Translate } from "./i18n.js"
import { iconFor, svg } from "./icons.js"
import type { Method } from "./methods.js"

export type Row = { method: Method; row: HTMLElement; radio: HTMLInputElement; name: HTMLElement; del: HTMLButtonElement | false; body: HTMLElement }

export function buildRow(method: Method, choose: () => void, remove: () => void): Row {
  const radio = h("input", { type: "radio", name: "pgs-method", value: method.key, onchange: choose })
  const name = h("span", { className: "pgs-name" })
  const icon = h("span", { className: "pgs-icon" })
  icon.innerHTML = svg(iconFor(method.kind === "redirect" ? method.family : method.kind === "wallet" ? "wallets" : "card"))
  const del = method.kind === "saved" && h("button", { type: "button", className: "pgs-del", onclick: remove })
  // The chosen row's content (fields, message) goes into `body`.
  const body = h("div", { className: "pgs-body" })
  const row = h("div", { className: "pgs-row" }, h("div", { className: "pgs-head" }, h("label", {}, radio, icon, name), del), body)
  return { method, row, radio, name, del, body }
}

export function paintRow(r: Row, text: string, open: boolean, t: Translate) {
  r.name.textContent = text
  r.radio.checked = open
  r.row.classList.toggle("pgs-open", open)
  if (r.del) {
    r.del.textContent = t("del", { card: "" }).trim()
    r.del.setAttribute("aria-label", t("del", { card: text }))
  }
}
