/**
 * The widget's second entry: pays an order's payment collection (money after checkout: an order edit, exchange,
 * claim or draft order left the order owing more) instead of a cart. It shows what is owed and for which order,
 * offers the methods the server says can serve the collection (saved cards only to the customer who owns the
 * order), runs the card fields, 3-D Secure and redirect methods with the same flow as the cart checkout
 * (core/flow.ts), and instead of completing a cart asks our apply route to record the payment (the webhook does
 * too; Medusa records it once). A redirect comes back to this page (see returnToCollection).
 *
 * Its own bundle (dist/collection.js): the cart checkout's first paint does not carry it. Mirrors checkout.ts's
 * render/run loop; the two differ in where the amount, methods and sessions come from and what "completing" does.
 */
import { connect, statusOf, wait, type Connection } from "../core/api.js"
import { sessionRoute, type PaymentSession } from "../core/cart.js"
import { mountCardFields, preloadCardFields, type CardFields } from "../core/card-fields.js"
import { h, resolveTarget, shell, type ShellOptions } from "../core/dom.js"
import { delayOf, initialFlow, next, type Event, type Flow, type State } from "../core/flow.js"
import { english, loadTexts, resolveLocale, type Locale, type Translate } from "../core/i18n.js"
import { providerLabel, type Method } from "../core/methods.js"
import { buildRow, paintRow, type Row } from "../core/rows.js"
import { listSavedCards, savedCardText } from "../core/saved-cards.js"
import { cardVars } from "../core/theme.js"
import type { CheckoutOptions } from "../core/options.js"
import { panel as methodPanel, type Panel, type Start } from "../core/panels.js"
import { CARD_PROVIDER } from "../core/store-types.js"
import { dialog, postForm, secureCall } from "../core/three-ds.js"
import { applyPayment, readCollection, startSession, type CollectionSummary, type CollectionView, type Served } from "./api.js"
import { collectionText, type CollectionText } from "./texts.js"

const RETURN_KEY = "pgs:return-collection"

export type CollectionPaid = { status: "approved" | "pending"; collection: CollectionSummary }

export type CollectionOptions = Connection &
  ShellOptions & {
    /** The payment collection's id (the path of Medusa's "Copy payment link"). */
    collectionId: string
    /** The order id of that link (`?order_id=`): a collection of another order is not shown. */
    orderId?: string
    /** After a redirect: the session the shopper comes back from (default: `?pgs_session=` of this page). */
    returnSession?: string
    /** Paid (or awaiting the gateway's decision); the page may show the order. */
    onPaid?(paid: CollectionPaid): void
  } & Pick<CheckoutOptions, "locale" | "providers" | "methodData" | "sessionData" | "appearance" | "cssVariables" | "customerConfig" | "labels" | "onStateChange" | "onError">

export type CollectionPayment = { ready: Promise<void>; setLocale(locale: string): Promise<void>; state(): State; destroy(): void }

/** Before leaving for a redirect: where to come back to (this page), kept for the store's return page. */
const rememberCollection = (sessionId: string) => sessionStorage.setItem(RETURN_KEY, JSON.stringify({ sessionId, page: location.pathname + location.search }))

/**
 * On the store's return page (where the gateway sends every shopper back): when the shopper left from a payment
 * collection page, go back there with the session, and answer true. Call it first; false means a cart's return.
 */
export function returnToCollection(): boolean {
  const kept = JSON.parse(sessionStorage.getItem(RETURN_KEY) ?? "null") as { sessionId: string; page: string } | null
  const q = new URLSearchParams(location.search)
  const session = q.get("pgs_session")
  if (!kept || (session && session !== kept.sessionId)) return false
  sessionStorage.removeItem(RETURN_KEY)
  const back = new URL(kept.page, location.origin)
  back.searchParams.set("pgs_session", kept.sessionId)
  if (q.get("pgs_outcome")) back.searchParams.set("pgs_outcome", q.get("pgs_outcome")!)
  location.replace(back.toString())
  return true
}

export function mountCollectionPayment(target: Element | string, o: CollectionOptions): CollectionPayment {
  const api = connect(o)
  const host = resolveTarget(target)
  const box = shell(host, o)
  let locale: Locale = resolveLocale(o.locale ?? navigator.language)
  let t: Translate = english
  let summary: CollectionSummary | undefined
  /** The collection as the server answered it (the card's entry names the gateway's script). */
  let view: CollectionView | undefined
  let methods: Method[] = []
  let rows: Row[] = []
  let selected = ""
  let flow: Flow = initialFlow
  let fields: CardFields | null = null
  let cardSession: PaymentSession | null = null
  /** The card's session, asked for beside the collection (load): the first card row to open takes it. */
  let early: Promise<PaymentSession> | null = null
  let start: Start | undefined
  let extra: Panel | null = null
  const made: Record<string, Panel> = {}
  let challenge: { cancel(): void } | null = null
  let closed: CollectionText | null = null
  let pending = false
  let gone = false

  const heading = h("p", { className: "pgs-order" })
  const owed = h("p", { className: "pgs-owed" })
  const legend = h("legend")
  const list = h("div", { className: "pgs-rows" })
  const fieldset = h("fieldset", { className: "pgs-methods" }, legend, list)
  const panel = h("div", { className: "pgs-panel" })
  const error = h("p", { className: "pgs-error", role: "alert" })
  const status = h("p", { className: "pgs-status", role: "status" })
  const pay = h("button", { type: "button", className: "pgs-pay", onclick: () => void onPay() })
  box.append(heading, owed, fieldset, error, status, pay)
  const acs = dialog(fieldset, () => (challenge?.cancel(), dispatch({ type: "cancel" })))
  if (o.styles !== false) box.before(h("style", {}, ".pgs-order{font-weight:600}.pgs-owed{font-size:1.25em}.pgs-order:empty,.pgs-owed:empty{display:none}"))

  const methodOf = (key: string) => methods.find((m) => m.key === key)
  const ct = (key: CollectionText, vars?: Record<string, string>) => collectionText(locale, key, vars)

  function dispatch(e: Event) {
    const n = next(flow, e)
    if (n === flow || gone) return
    const moved = n.state !== flow.state
    flow = n
    render()
    if (moved) o.onStateChange?.(n.state)
    void run(n)
  }

  function label(m: Method): string {
    if (m.kind === "saved") return savedCardText(t, m.card)
    if (m.kind === "card") return t("card")
    return o.labels?.[m.key] ?? providerLabel(m.key, t)
  }

  function render() {
    const f = flow
    const asking = f.state === "challenge" && f.trans === undefined
    const done = f.state === "done" || !!closed
    host.setAttribute("data-pgs-state", closed ? "closed" : f.state)
    box.lang = locale
    heading.textContent = summary?.order.display_id != null ? ct("order", { order: String(summary.order.display_id) }) : ""
    const amount = summary ? money(summary.payable || f.state === "done" ? summary.owed : summary.amount, summary.currency_code, locale) : ""
    owed.textContent = summary && !closed && f.state !== "done" ? `${ct("owed")}: ${amount}` : ""
    legend.textContent = t("methods")
    fieldset.hidden = done
    fieldset.disabled = f.state !== "idle"
    pay.hidden = done
    // Never before the card fields can take the card (as at checkout).
    pay.disabled = f.state !== "idle" || !selected || (selected === "card" && !fields)
    pay.setAttribute("aria-busy", String(f.state !== "idle" && f.state !== "done"))
    pay.textContent = summary ? t("payAmount", { amount }) : t("pay")
    error.textContent = closed && closed !== "settled" ? ct(closed) : f.note?.alert ? t(f.note.key, f.note) : ""
    status.textContent =
      closed === "settled" ? ct("settled") : f.state === "done" ? ct(pending ? "pending" : "received") : f.note && !f.note.alert && !asking ? t(f.note.key) : ""
    acs.paint(asking, t)
    extra?.paint(t)
    for (const r of rows) paintRow(r, label(r.method), r.method.key === selected, t)
  }

  function buildRows() {
    rows = methods.map((m) =>
      buildRow(
        m,
        () => {
          const chosen = select(m.key)
          dispatch({ type: "clear" })
          chosen.catch(problem)
        },
        () => {},
      ),
    )
    for (const r of rows) if (r.del) r.del.remove() // saved cards are managed at checkout, not on a payment link
    list.replaceChildren(...rows.map((r) => r.row))
  }

  function problem(e: unknown) {
    o.onError?.(e)
    dispatch({ type: "note", key: "error", alert: true })
  }

  let choosing = Promise.resolve()
  function select(key: string): Promise<void> {
    if (flow.state !== "idle") return choosing
    selected = key
    return (choosing = choosing.catch(() => {}).then(() => (key === selected ? open(key) : undefined)))
  }

  async function open(key: string) {
    fields?.destroy()
    fields = null
    panel.replaceChildren()
    rows.find((r) => r.method.key === key)?.body.append(panel, error)
    const m = methodOf(key)
    extra = m && m.kind !== "card" ? (made[key] ??= methodPanel(m, o, false, panel, () => locale)) : null
    render()
    if (m?.kind === "card") await mountCard()
    else if (extra) panel.replaceChildren(...extra.nodes)
  }

  async function mountCard() {
    // The card row keeps its height while the session and the gateway's fields load, as at checkout.
    const slot = h("div", { className: "pgs-card", "aria-busy": "true" })
    panel.replaceChildren(slot)
    // The gateway's script is asked for while the session is made, not after.
    preloadCardFields(view?.payment_methods.find((m) => m.identifier === "pgs")?.script_url)
    const asked = early
    early = null
    try {
      cardSession = await (asked ?? startSession(api, o.collectionId, { provider_id: CARD_PROVIDER }, o.orderId))
      const d = cardSession.data
      fields = await mountCardFields(slot, d, locale, cardVars(o.appearance, d.css_variables, o.cssVariables), o.customerConfig, () => {}) // no read before Pay to do ahead
      render() // Pay is clickable now
    } catch (e) {
      panel.replaceChildren()
      throw e
    }
  }

  async function onPay() {
    await choosing.catch(() => {})
    await early?.catch(() => {})
    const m = methodOf(selected)
    if (flow.state !== "idle" || !m) return
    dispatch({ type: "clear" })
    if (flow.unsettled) return dispatch({ type: "pay", card: true })
    if (m.kind === "card") {
      if (!fields) return
      return fields.validate() ? dispatch({ type: "pay", card: true }) : dispatch({ type: "note", key: "checkFields", alert: true })
    }
    const s = await extra?.start()
    if (!s) return
    if (typeof s === "string") return dispatch({ type: "note", key: s, alert: true })
    start = s
    dispatch({ type: "pay", card: false })
  }

  async function run(f: Flow) {
    try {
      if (f.tries) await wait(delayOf(f.tries))
      if (f !== flow) return
      const event = await call(f)
      if (event) dispatch(event)
    } catch (e) {
      if (f !== flow) return
      if (statusOf(e) === 409 && f.state !== "loading") await load().catch(() => {}) // paid or canceled meanwhile
      dispatch({ type: "fault", status: statusOf(e) })
      if (flow.note?.alert) o.onError?.(e)
    }
  }

  /** "completing": our apply route; the same events as a cart completion (an order, or a refused session). */
  async function applied(session: PaymentSession): Promise<Event> {
    for (let i = 0; ; i++) {
      const r = await applyPayment(api, o.collectionId, session.id)
      summary = r.payment_collection
      if (r.status === "applied" || (r.status === "pending" && i >= 300)) {
        pending = r.status === "pending"
        // Ends the flow as a placed order does; the link holder is never told the order's id, so none is handed on.
        return { type: "order", order: { id: "", display_id: summary.order.display_id ?? undefined } }
      }
      if (r.status !== "pending") return { type: "refused", session: r.payment_session }
      // The gateway decides later (the webhook records it): asked again, as a return page polls.
      pending = true
      render()
      await wait(2000)
    }
  }

  async function call(f: Flow): Promise<Event | void> {
    const session = f.session ?? f.unsettled
    switch (f.state) {
      case "loading":
        await load()
        dispatch({ type: "loaded" })
        if (returning) {
          const s = { id: returning, provider_id: "", status: "pending", data: {} }
          returning = ""
          flow = { ...flow, unsettled: s }
          return dispatch({ type: "pay", card: false })
        }
        if (selected && !closed) await select(selected).catch(problem)
        return
      case "idle":
        if (f.renew && methodOf(selected)?.kind === "card") await select("card").catch(problem)
        return
      case "submitting":
        return fields!.pay({})
      case "attaching":
        return { type: "session", session: await sessionRoute(api, cardSession!.id, "transaction", { transaction_id: f.tx }) }
      case "starting":
        // One call: the session with the browser's data the store records for the gateway (and the payer's IP). It
        // replaces the card's session: the card row, opened again, asks anew.
        early = null
        return { type: "session", session: await startSession(api, o.collectionId, start!, o.orderId) }
      case "completing":
        return applied(session!)
      case "fingerprint":
      case "challenge":
        return secureCall(f, api, acs.host, t("challenge"), o, (c) => (challenge = c))
      case "leaving":
        rememberCollection(session!.id)
        if (f.step?.type === "redirect") location.assign(f.step.url)
        else if (f.step?.type === "form_submit") postForm(f.step.url, f.step.fields)
        return
      case "done":
        render()
        o.onPaid?.({ status: pending ? "pending" : "approved", collection: summary! })
    }
  }

  let returning = o.returnSession ?? new URLSearchParams(location.search).get("pgs_session") ?? ""

  async function load() {
    // The first load asks for the card's session beside the collection when the card may be the first method (one
    // store round trip to its fields; refused, harmlessly, on a collection with nothing to pay), never when the payer
    // comes back from a redirect: a new session would retire the one they paid in. Pay waits for it (Medusa keeps only
    // the newest session: the one made at Pay must be it).
    if (flow.state == "loading" && !returning && (o.providers?.[0] ?? CARD_PROVIDER) == CARD_PROVIDER)
      (early = startSession(api, o.collectionId, { provider_id: CARD_PROVIDER }, o.orderId)).catch(() => {})
    let cards
    try {
      // The customer's saved cards and the texts at the same time (the cards are used only when the server says they own the order).
      ;[view, cards] = await Promise.all([readCollection(api, o.collectionId, o.orderId), listSavedCards(api).catch(() => null), texts])
    } catch (e) {
      const s = statusOf(e)
      if (s !== 404 && s !== 409) throw e
      closed = s === 404 ? "unknown" : "gone"
      summary = undefined
      methods = []
      return
    }
    summary = view.payment_collection
    // Back from a redirect, a collection the webhook already settled is still asked about this session (the
    // apply route answers "applied" for it), so the payer reads the outcome of their own payment.
    closed = summary.payable || returning ? null : "settled"
    const served = o.providers ? o.providers.flatMap((id) => view!.payment_methods.filter((m) => m.provider_id === id)) : view.payment_methods
    methods = toMethods(served, view.saved_cards ? cards : null, o.methodData)
    selected = methods[0]?.key ?? ""
    buildRows()
  }

  async function setLocale(l: string) {
    const chosen = (locale = resolveLocale(l))
    await loadTexts(chosen, (texts) => {
      if (locale !== chosen) return // another language was chosen meanwhile
      t = texts
      render()
    })
    fields?.changeLocale(locale)
  }

  // The shopper's texts load while the collection is read (a language's pack is a request of its own).
  const texts = setLocale(locale)
  const ready = run(flow)
  render()

  return {
    ready: ready.then(() => choosing),
    state: () => flow.state,
    setLocale,
    destroy() {
      gone = true
      challenge?.cancel()
      fields?.destroy()
      host.replaceChildren()
    },
  }
}

/** The server's methods as rows: saved cards (only when the server said this customer owns the order), card, the rest. */
function toMethods(served: Served[], cards: Awaited<ReturnType<typeof listSavedCards>>, methodData?: Record<string, Record<string, unknown>>): Method[] {
  const methods: Method[] = []
  for (const m of served) {
    if (m.identifier === "pgs") {
      methods.unshift(...(cards ?? []).map((card): Method => ({ kind: "saved", key: `saved:${card.id}`, card })))
      methods.push({ kind: "card", key: "card" })
      continue
    }
    const vouchers = methodData?.[m.provider_id]?.voucher_code ? undefined : m.voucher_codes
    methods.push({ kind: "redirect", key: m.provider_id, id: m.provider_id, family: m.identifier.slice(4), vouchers })
  }
  return methods
}

/** An exact decimal string from the server, formatted in the shopper's locale (display only, no arithmetic). */
const money = (amount: string, currency: string, locale: string) => new Intl.NumberFormat(locale, { style: "currency", currency }).format(Number(amount))
