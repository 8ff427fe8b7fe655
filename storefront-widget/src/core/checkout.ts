/**
 * The checkout widget: pick a method (card in the gateway's embedded fields, a saved card, a wallet token, or a
 * redirect method enabled in the cart's region), pay, and complete the cart, running every next step.
 * Card data never passes through here: it stays inside the gateway's iframe (or the wallet's token).
 */
import { connect, statusOf, type Connection } from "./api"
import { browserInfo } from "./browser-info"
import { completeCart, initiateSession, readCart, sessionOf, sessionRoute, type Cart, type PaymentSession } from "./cart"
import { h, injectStyles, resolveTarget } from "./dom"
import { declineKey, english, resolveLocale, translator, type Locale, type TextKey, type Translate } from "./i18n"
import { Machine, type State } from "./machine"
import { listMethods, providerLabel, type Method } from "./methods"
import { rememberReturn } from "./return-page"
import { deleteSavedCard, savedCardText, type SavedCard } from "./saved-cards"
import { loadScript } from "./script"
import { runChallenge, runFingerprint, postForm, type NextAction } from "./three-ds"

export const CARD_PROVIDER = "pp_pgs_pgs"
const INSTANT = "pp_pgs-provider-instant_pgs"

export type CheckoutOptions = Connection & {
  cartId: string
  /** en-US, bs-BA, ro-RO or sv-SE (else the session's, else the browser's). */
  locale?: string
  /** Only these provider ids, in this order (default: every pp_pgs* provider of the cart's region). */
  providers?: string[]
  /** A wallet button's token source (wallet-one, e.g. the wallet's JS); a logged-in shopper may save the card. */
  wallet?: { getToken(): Promise<string> }
  /** Extra session data per provider id (e.g. a voucher code). */
  methodData?: Record<string, Record<string, unknown>>
  /** Extra data for card sessions paid through the Direct API (sandbox: `simulated_flow`). */
  sessionData?: Record<string, unknown>
  cssVariables?: Record<string, string>
  customerConfig?: Record<string, boolean>
  labels?: Record<string, string>
  styles?: boolean
  onOrder?(order: any): void
  onStateChange?(state: State): void
  /** Every failure the shopper was told about (for the store's monitoring; never carries card data). */
  onError?(error: unknown): void
}

export type Checkout = { ready: Promise<void>; setLocale(locale: string): Promise<void>; state(): State; destroy(): void }

export function mountCheckout(target: Element | string, o: CheckoutOptions): Checkout {
  const api = connect(o)
  const root = resolveTarget(target)
  if (o.styles !== false) injectStyles()
  let locale: Locale = resolveLocale(o.locale ?? navigator.language)
  let t: Translate = english
  let cart: Cart
  let methods: Method[] = []
  let cards: SavedCard[] | null = null
  let selected = ""
  let component: any = null
  let core: any = null
  let cardSession: PaymentSession | null = null
  /** A Direct API session whose completion did not conclude: Pay only completes again, never pays anew. */
  let unsettled: PaymentSession | null = null
  let message: { key: TextKey; alert: boolean } | null = null

  const m = new Machine((s) => {
    pay.disabled = s !== "idle"
    pay.setAttribute("aria-busy", String(s !== "idle" && s !== "done" && s !== "failed"))
    root.setAttribute("data-pgs-state", s)
    o.onStateChange?.(s)
  })

  const legend = h("legend")
  const list = h("fieldset", { className: "pgs-methods" }, legend)
  const panel = h("div", { className: "pgs-panel" })
  const saveBox = h("input", { type: "checkbox", id: "pgs-save" })
  const saveLabel = h("label", { htmlFor: "pgs-save" })
  const save = h("div", { className: "pgs-opt pgs-save" }, saveBox, saveLabel)
  const error = h("p", { className: "pgs-error", role: "alert" })
  const status = h("p", { className: "pgs-status", role: "status" })
  const pay = h("button", { type: "button", className: "pgs-pay", onclick: () => void onPay() })
  const acs = h("div", { className: "pgs-3ds", role: "dialog", "aria-modal": "true", hidden: true })
  const code = h("input", { type: "text", id: "pgs-code", inputMode: "numeric", autocomplete: "one-time-code", maxLength: 6, pattern: "[0-9]{6}" })
  const codeLabel = h("label", { htmlFor: "pgs-code" })
  const box = h("div", { className: "pgs" }, list, error, status, pay, acs)
  /** One row per method, built once: repainting never rebuilds them, so the card frame (in the panel) stays loaded. */
  let rows: { method: Method; row: HTMLElement; radio: HTMLInputElement; text: HTMLLabelElement; del: HTMLButtonElement | false }[] = []
  root.replaceChildren(box)

  const say = (key: TextKey | null, alert = false) => {
    message = key ? { key, alert } : null
    error.textContent = alert && key ? t(key) : ""
    status.textContent = !alert && key ? t(key) : ""
  }

  function paint() {
    box.lang = locale
    legend.textContent = t("methods")
    saveLabel.textContent = t("save")
    pay.textContent = t("pay")
    codeLabel.textContent = t("code")
    acs.setAttribute("aria-label", t("challenge"))
    if (message) say(message.key, message.alert)
    for (const r of rows) {
      const text = label(r.method)
      r.text.textContent = text
      r.radio.checked = r.method.key === selected
      if (r.del) {
        r.del.textContent = t("del", { card: "" }).trim()
        r.del.setAttribute("aria-label", t("del", { card: text }))
      }
    }
  }

  function label(method: Method): string {
    if (method.kind === "saved") return savedCardText(t, method.card)
    if (method.kind === "card") return t("card")
    if (method.kind === "wallet") return o.labels?.wallet ?? t("walletRedirect")
    return o.labels?.[method.id] ?? providerLabel(method.id, t)
  }

  function renderOptions() {
    rows = methods.map((method) => {
      const id = `pgs-m-${method.key.replace(/[^\w-]/g, "_")}`
      const radio = h("input", { type: "radio", name: "pgs-method", id, value: method.key, onchange: () => select(method.key).catch(fail) })
      const text = h("label", { htmlFor: id })
      const del = method.kind === "saved" && h("button", { type: "button", className: "pgs-del", onclick: () => remove(method.card).catch(fail) })
      return { method, row: h("div", { className: "pgs-opt" }, radio, text, del), radio, text, del }
    })
    list.replaceChildren(legend, ...rows.map((r) => r.row))
  }

  async function remove(card: SavedCard) {
    await deleteSavedCard(api, card.id)
    cards = (cards ?? []).filter((c) => c.id !== card.id)
    methods = methods.filter((x) => !(x.kind === "saved" && x.card.id === card.id))
    rows = rows.filter((r) => (r.method.kind === "saved" && r.method.card.id === card.id ? r.row.remove() : true))
    if (selected === `saved:${card.id}`) await select("card")
    paint()
    say("deleted")
    ;(list.querySelector("input:checked") as HTMLElement | null)?.focus()
  }

  /**
   * Choosing a method creates its payment session, and Medusa keeps only the cart's latest one: so choices run one
   * after the other, a choice already overtaken by the shopper's next one is skipped, and Pay waits for the last.
   */
  let choosing = Promise.resolve()
  function select(key: string): Promise<void> {
    if (m.state !== "idle") return choosing
    selected = key
    return (choosing = choosing.catch(() => {}).then(() => (key === selected ? show(key) : undefined)))
  }

  async function show(key: string) {
    say(null)
    const method = methods.find((x) => x.key === key)
    unmountCard()
    // The method's fields go right under its own option (moved while empty: moving a loaded iframe reloads it).
    panel.replaceChildren()
    rows.find((r) => r.method.key === key)?.row.after(panel)
    paint()
    if (method?.kind === "card") await mountCard()
    else if (method?.kind === "wallet" && cards !== null) panel.replaceChildren(save)
    else if (method?.kind === "redirect" && method.id === INSTANT) panel.replaceChildren(codeLabel, code)
  }

  function unmountCard() {
    component?.unmount()
    core?.destroy()
    component = core = null
  }

  async function mountCard() {
    panel.replaceChildren()
    const current = sessionOf(cart, CARD_PROVIDER)
    // Reuse the cart's unpaid Embedded Fields session; otherwise start one (Medusa replaces other sessions).
    cardSession =
      current?.data.integration === "embedded_fields" && current.status === "pending" && !current.data.transaction_id
        ? current
        : await initiateSession(api, cart, CARD_PROVIDER)
    const d = cardSession.data
    const host = h("div", { className: "pgs-card" })
    for (const [k, v] of Object.entries({ ...d.css_variables, ...o.cssVariables })) host.style.setProperty(k, String(v))
    panel.replaceChildren(host)
    const PaymentComponent = await loadScript(d.script_url)
    core = await PaymentComponent({ clientKey: d.client_key, sessionId: d.gateway_session_id, environment: d.environment, locale })
    component = core.create("card", {
      componentConfig: { customerConfig: { hasHolderName: true, holderNameRequired: true, ...o.customerConfig } },
      componentListeners: { onError: () => {} },
    })
    await component.mount(host)
  }

  /** What submitPayment may tell the gateway about the shopper (from the cart; never card data). */
  function shopper() {
    const a = cart.billing_address ?? {}
    const c: Record<string, string> = {}
    const put = (k: string, v?: string | null) => v && (c[k] = v)
    put("firstName", a.first_name)
    put("lastName", a.last_name)
    put("address", a.address_1)
    put("city", a.city)
    put("postalCode", a.postal_code)
    put("country", a.country_code?.toUpperCase())
    put("email", cart.email)
    if (a.phone?.startsWith("+")) put("phone", a.phone)
    return c
  }

  async function onPay() {
    await choosing.catch(() => {})
    if (m.state !== "idle") return
    say(null)
    try {
      if (unsettled) return await finish(unsettled)
      const method = methods.find((x) => x.key === selected)
      if (!method) return
      if (method.kind === "card") return await payCard()
      let data: Record<string, unknown>
      if (method.kind === "saved") data = { payment_method: { type: "saved_card", saved_card_id: method.card.id }, browser_info: browserInfo(), ...o.sessionData }
      else if (method.kind === "wallet")
        data = { payment_method: { type: "wallet-one", token: await o.wallet!.getToken() }, browser_info: browserInfo(), ...(saveBox.checked ? { save_card: true } : {}), ...o.sessionData }
      else {
        const bad = method.id === INSTANT && !!code.value && !/^\d{6}$/.test(code.value)
        code.setAttribute("aria-invalid", String(bad))
        if (bad) {
          code.focus()
          return say("codeInvalid", true)
        }
        data = { ...o.methodData?.[method.id], ...(method.id === INSTANT && code.value ? { scheme_code: code.value } : {}) }
      }
      m.go("starting")
      say("processing")
      const provider = method.kind === "redirect" ? method.id : CARD_PROVIDER
      const session = await initiateSession(api, cart, provider, data)
      unsettled = session
      // Records the shopper's IP (and browser data) for the gateway; repeating it is harmless.
      await sessionRoute(api, session.id, "client-info", { browser_info: browserInfo() })
      await finish(session)
    } catch (e) {
      fail(e)
    }
  }

  async function payCard() {
    if (!component || !m.can("submitting")) return
    if (!component.validate()) return say("checkFields", true)
    m.go("submitting")
    say("processing")
    const { response, error: err } = await new Promise<{ response: any; error: any }>((resolve) =>
      component.submitPayment({ customer: shopper(), callback: (response: any, error: any) => resolve({ response, error }) }),
    )
    if (!response?.transaction_id) {
      m.go("idle")
      return say(err?.code === "IN_PROGRESS" ? "processing" : "error", true)
    }
    if (["DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"].includes(response.status)) {
      // Nothing was taken: the shopper may correct the card and try again in the same session.
      m.go("idle")
      return say(declineKey(response.processing_code ?? response.response_message, response.status), true)
    }
    m.paid = true
    m.go("attaching")
    const session = await sessionRoute(api, cardSession!.id, "transaction", { transaction_id: response.transaction_id }, () => say("retrying"))
    unsettled = session
    await finish(session)
  }

  /** Completes the cart and runs each next step until an order or a final answer. */
  async function finish(session: PaymentSession) {
    m.go("completing")
    say("processing")
    for (;;) {
      const r = await completeCart(api, cart.id, (why) => say(why))
      if (r.type === "order") {
        unsettled = null
        m.go("done")
        say("paid")
        o.onOrder?.(r.order)
        return
      }
      cart = await readCart(api, cart.id)
      let s = sessionOf(cart, session.provider_id) ?? session
      if (r.error?.type !== "payment_requires_more_error" || !s.data.next_action) return await decline(s)
      // The next steps of this attempt, until the session is settled (authorized, or failed).
      let next: NextAction | null = s.data.next_action
      while (next) {
        if (next.type === "redirect" || next.type === "form_submit") {
          m.go("leaving")
          say("redirecting")
          rememberReturn({ cartId: cart.id, sessionId: s.id })
          if (next.type === "redirect") location.assign(next.url)
          else postForm(next.url, next.fields)
          return
        }
        if (next.type === "fingerprint") {
          m.go("fingerprint")
          say("verifying")
          const posted = await runFingerprint(next, acs)
          s = await sessionRoute(api, s.id, "three-ds/request-authentication", { method_completed: posted })
        } else {
          m.go("challenge")
          say("challenge")
          acs.hidden = false
          const transStatus = await runChallenge(next, acs, t("challenge"), originOf(o)).result
          acs.hidden = true
          if (transStatus !== null) s = await sessionRoute(api, s.id, "three-ds/authentication-completed", { trans_status: transStatus })
        }
        next = s.status === "requires_more" ? s.data.next_action ?? null : null
      }
      if (s.status === "error" || s.status === "canceled") return await decline(s)
      m.go("completing")
      say("processing")
    }
  }

  /** This attempt is over and nothing was taken: a new Pay starts a new attempt (a fresh card session too). */
  async function decline(s: PaymentSession) {
    unsettled = null
    m.paid = false
    m.go("failed")
    m.go("idle")
    if (s.provider_id === CARD_PROVIDER && selected === "card") await select("card")
    say(declineKey(s.data.error?.code ?? s.data.gateway_status, s.status), true)
  }

  function fail(e: unknown) {
    o.onError?.(e)
    const st = statusOf(e)
    if (m.can("failed")) m.go("failed")
    if (m.can("idle")) m.go("idle")
    // A session whose outcome we could not learn is only completed again (never paid again) by the next Pay.
    if (!(st === undefined || st >= 500 || st === 409)) unsettled = null
    say("error", true)
  }

  async function setLocale(l: string) {
    locale = resolveLocale(l)
    t = await translator(locale)
    paint()
    component?.changeLocale(locale)
  }

  const ready = (async () => {
    await setLocale(locale)
    say("loading")
    cart = await readCart(api, o.cartId)
    // The terminal's locale (session data) applies when the storefront did not choose one.
    const configured = sessionOf(cart, CARD_PROVIDER)?.data.locale
    if (!o.locale && configured) await setLocale(configured)
    ;[methods, cards] = await listMethods(api, cart, o)
    selected = methods.find((x) => x.kind === "saved")?.key ?? methods[0]?.key ?? ""
    renderOptions()
    say(null)
    m.go("idle")
    if (selected) await select(selected)
  })().catch(fail)
  paint()

  return {
    ready,
    state: () => m.state,
    setLocale,
    destroy() {
      unmountCard()
      root.replaceChildren()
    },
  }
}

/** The Medusa backend's origin: our own 3-D Secure notification page posts from there. */
const originOf = (o: Connection): string | null => ("baseUrl" in o ? new URL(o.baseUrl).origin : null)
