/**
 * What a method other than the card needs when the shopper opens it: its inputs under the method's name (the
 * wallet's "save this card", the instant payment's code, the voucher picker; nothing for the others) and the payment
 * session Pay starts. A chunk of its own (like 3-D Secure's steps), loaded when such a method is opened or hovered:
 * the card's path never loads it. The payment-collection entry uses it as well.
 */
import { browserInfo } from "./browser-info.js"
import { addStyles, h } from "./dom.js"
import type { TextKey, Translate } from "./i18n.js"
import type { Method } from "./methods.js"
import type { CheckoutOptions } from "./options.js"
import { CONSENT_WORDING, saveLabel } from "./saved-cards.js"
import { CARD_PROVIDER } from "./store-types.js"

/** A saved card's Delete (its row, pointed at or focused, has loaded this chunk already): not in the first paint. */
export { deleteSavedCard } from "./saved-cards.js"

const CSS =
  ".pgs-field{display:grid;gap:var(--pgs-spacingUnit)}.pgs-check{display:flex;gap:calc(var(--pgs-spacingUnit)*2);align-items:center}" +
  "[type=text],select{background:var(--pgs-colorBackground);min-height:44px;padding:0 10px;border:1px solid var(--pgs-colorBorder);border-radius:var(--pgs-borderRadius);width:100%}"

/**
 * A payment session to start, as the session route's body: provider, session data, and the browser data the store
 * records for the gateway on the new session (one call: no client-info call after it).
 */
export type Start = { provider_id: string; data?: Record<string, unknown>; client_info: { browser_info: ReturnType<typeof browserInfo> } }

export type Panel = {
  /** What the row shows under the method's name (none for most methods). */
  nodes: Node[]
  paint(t: Translate): void
  /** Pay: the session to start; a note's key when an input is wrong; null when there is nothing to pay with. */
  start(): Promise<Start | TextKey | null>
}

/**
 * `canSave`: a customer is logged in, so a wallet's card may be saved. `inside`: where the panel goes (for its
 * styles). `locale`: the shopper's language now, recorded with a consent to later charges by the shop.
 */
export function panel(m: Method, o: Pick<CheckoutOptions, "wallet" | "methodData" | "sessionData">, canSave: boolean, inside: Node, locale: () => string): Panel {
  addStyles(inside, CSS)
  const direct = () => ({ browser_info: browserInfo(), ...o.sessionData })
  const info = () => ({ client_info: { browser_info: browserInfo() } })
  const text = h("span")
  if (m.kind === "saved")
    return { nodes: [], paint() {}, start: async () => ({ provider_id: CARD_PROVIDER, data: { payment_method: { type: "saved_card", saved_card_id: m.card.id }, ...direct() }, ...info() }) }
  if (m.kind === "wallet") {
    const save = h("input", { type: "checkbox" })
    return {
      nodes: canSave ? [h("label", { className: "pgs-check" }, save, text)] : [],
      paint: (t) => (text.textContent = saveLabel(t, m.consent)),
      async start() {
        const token = await o.wallet!.getToken()
        if (!token) return null
        // The consent is recorded with the words the shopper read (the label), its version and language.
        const consent = m.consent && { merchant_consent: { wording: CONSENT_WORDING, locale: locale(), text: text.textContent } }
        return { provider_id: CARD_PROVIDER, data: { payment_method: { type: "wallet-one", token }, ...(save.checked ? { save_card: true, ...consent } : {}), ...direct() }, ...info() }
      },
    }
  }
  if (m.kind !== "redirect") throw new Error(`pgs widget: no panel for ${m.kind}`)
  const instant = m.family === "provider-instant"
  const code = h("input", { type: "text", inputMode: "numeric", autocomplete: "one-time-code", maxLength: 6 })
  const voucher = h("select", {}, ...(m.vouchers ?? []).map((v) => h("option", { value: v }, v.toUpperCase())))
  const input = instant ? code : m.vouchers && voucher
  return {
    nodes: input ? [h("label", { className: "pgs-field" }, text, input)] : [],
    paint: (t) => (text.textContent = t(instant ? "code" : "voucherPick")),
    async start() {
      const bad = instant && !!code.value && !/^\d{6}$/.test(code.value)
      code.setAttribute("aria-invalid", String(bad))
      if (bad) {
        code.focus()
        return "codeInvalid"
      }
      const extra = instant && code.value ? { scheme_code: code.value } : m.vouchers ? { voucher_code: voucher.value } : {}
      return { provider_id: m.id, data: { ...o.methodData?.[m.id], ...extra }, ...info() }
    },
  }
}
