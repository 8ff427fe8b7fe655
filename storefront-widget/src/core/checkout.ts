/**
 * The checkout widget, a payment element: an accordion of the methods that can serve the cart (saved cards first),
 * the chosen one open with its fields, one message next to it, and Pay with the amount. The flow itself is the
 * pure state machine in flow.ts; this file renders each state and makes the one call the state asks for.
 * Card data never passes through here: it stays inside the gateway's iframe (or the wallet's token).
 * Why one file of ~300 lines: it is the only place state meets DOM, and each render is a few lines; split further,
 * every piece would need the same closure (connection, translator, root and the current flow) handed to it.
 */
import { conflictOf, connect, refusalOf, statusOf, wait, type HttpError } from "./api.js"
import { payerOf, sessionOf, startSession, type Cart, type PaymentSession } from "./cart.js"
import { mountCardFields, type CardFields } from "./card-fields.js"
import { h, resolveTarget, shell } from "./dom.js"
import { delayOf, initialFlow, next, type Event, type Flow, type State } from "./flow.js"
import { english, loadTexts, resolveLocale, type Locale, type TextKey, type Translate } from "./i18n.js"
import { listMethods, providerLabel, type Method } from "./methods.js"
import { rememberReturn } from "./return-key.js"
import { buildRow, paintRow, type Row } from "./rows.js"
import { savedCardText, type SavedCard } from "./saved-cards.js"
import type { CheckoutOptions } from "./options.js"
import type { Dialog } from "./three-ds.js"
import type { Panel, Start } from "./panels.js"
import type { PayCheck } from "./pay-check.js"
import { CARD_PROVIDER } from "./store-types.js"
import { cardVars } from "./theme.js"
// Loaded only when used (bundles of their own, like the locales): 3-D Secure's steps and dialog when a payment needs
// them, the panels of the methods other than the card when the shopper opens (or points at) one, the card's pay
// check once the card fields are up.
const threeDs = () => import("./three-ds.js")
const panels = () => import("./panels.js")
const payChecks = () => import("./pay-check.js")

export { CARD_PROVIDER }
export type { CheckoutOptions }

export type Checkout = { ready: Promise<void>; setLocale(locale: string): Promise<void>; state(): State; destroy(): void }

export function mountCheckout(target: Element | string, o: CheckoutOptions): Checkout {
  const api = connect(o)
  const host = resolveTarget(target)
  const box = shell(host, o)
  let locale: Locale = resolveLocale(o.locale ?? navigator.language)
  let t: Translate = english
  let cart: Cart | undefined
  let methods: Method[] = []
  let cards: SavedCard[] | null = null
  let rows: Row[] = []
  let selected = ""
  let flow: Flow = initialFlow
  let fields: CardFields | null = null
  let cardSession: PaymentSession | null = null
  /** The card's session, asked for beside the method list (load): the first card row to open takes it. */
  let early: Promise<PaymentSession> | null = null
  /** The card fields' transaction and its session: the cart's completion attaches it first (one store call). */
  let named: { payment_session_id: string; transaction_id: string } | undefined
  /** What the next "starting" state creates: provider and session data, read when Pay was pressed. */
  let start: Start | undefined
  /** The open method's panel (not the card's), and every panel made so far: reopening keeps what was typed. */
  let extra: Panel | null = null
  const made: Record<string, Panel> = {}
  /** The card's pay check (pay-check.ts), read ahead of Pay as the card form turns complete. */
  let check: PayCheck | undefined
  /** Its chunk, loaded once (asked again after a failure), never made after destroy(). */
  let checking: Promise<PayCheck | void> | undefined
  const payCheckLoaded = () => (checking ??= payChecks().then((m) => (gone ? undefined : (check = m.payCheck(api, o.cartId, host))), () => void (checking = undefined)))
  let challenge: { cancel(): void } | null = null
  let acs: Dialog | null = null
  let gone = false

  const legend = h("legend")
  const list = h("div", { className: "pgs-rows" })
  const fieldset = h("fieldset", { className: "pgs-methods" }, legend, list)
  const panel = h("div", { className: "pgs-panel" })
  const error = h("p", { className: "pgs-error", role: "alert" })
  const status = h("p", { className: "pgs-status", role: "status" })
  const pay = h("button", { type: "button", className: "pgs-pay", onclick: () => void onPay().catch(problem) })
  box.append(fieldset, error, status, pay)

  const methodOf = (key: string) => methods.find((m) => m.key === key)

  function dispatch(e: Event) {
    const n = next(flow, e)
    if (n === flow || gone) return
    const moved = n.state !== flow.state
    flow = n
    render()
    if (moved) o.onStateChange?.(n.state)
    void run(n)
  }

  /** The storefront's own label, else the terminal admin's name in this locale, else ours. */
  function label(m: Method): string {
    if (m.kind === "saved") return savedCardText(t, m.card)
    return (
      o.labels?.[m.key] ??
      ((m.kind !== "wallet" && m.names?.[locale]) || (m.kind === "card" ? t("card") : m.kind === "wallet" ? t("walletRedirect") : providerLabel(m.id, t)))
    )
  }

  function render() {
    const f = flow
    const asking = f.state === "challenge" && f.trans === undefined
    host.setAttribute("data-pgs-state", f.state)
    box.lang = locale
    legend.textContent = t("methods")
    // Locked while a payment runs: during the challenge the bank's page is the only thing to act on. Paid, only the
    // message stays (as on the payment-collection page): no card form left behind to fill in, nor a Pay to press.
    fieldset.disabled = f.state !== "idle"
    fieldset.hidden = pay.hidden = f.state == "done"
    // Never before the card fields can take the card: a click would only find them missing.
    pay.disabled = f.state !== "idle" || !selected || (selected === "card" && !fields)
    pay.setAttribute("aria-busy", String(f.state !== "idle" && f.state !== "done"))
    pay.textContent = cart?.total != null && cart.currency_code ? t("payAmount", { amount: money(cart.total, cart.currency_code, locale) }) : t("pay")
    error.textContent = f.note?.alert ? t(f.note.key, f.note) : ""
    status.textContent = f.note && !f.note.alert && !asking ? t(f.note.key, f.note) : ""
    acs?.paint(asking, t)
    extra?.paint(t)
    for (const r of rows) paintRow(r, label(r.method), r.method.key === selected, t)
  }

  function buildRows() {
    rows = methods.map((m) =>
      buildRow(
        m,
        () => {
          const chosen = select(m.key) // first: `selected` is what the cleared view shows
          dispatch({ type: "clear" })
          chosen.catch(problem)
        },
        () => m.kind === "saved" && remove(m.card).catch(problem),
      ),
    )
    list.replaceChildren(...rows.map((r) => r.row))
    // A method with a panel: its chunk loads as the shopper points at it or tabs to it.
    const preload = () => void panels().catch(() => {})
    for (const r of rows) if (r.method.kind !== "card") for (const on of ["pointerenter", "focusin"]) r.row.addEventListener(on, preload)
  }

  /** A problem outside the flow's calls (loading the card fields, deleting a card): told, and reported. */
  function problem(e: unknown) {
    o.onError?.(e)
    dispatch({ type: "note", key: "error", alert: true, ...refusalOf(e as HttpError) })
  }

  async function remove(card: SavedCard) {
    await (await panels()).deleteSavedCard(api, card.id)
    const key = `saved:${card.id}` // its method's key (methods.ts)
    methods = methods.filter((m) => m.key !== key)
    rows = rows.filter((r) => r.method.key !== key || r.row.remove()) // remove() answers nothing: the row goes
    if (selected === key) await select("card")
    dispatch({ type: "note", key: "deleted" })
    list.querySelector<HTMLElement>("input:checked")?.focus()
  }

  /**
   * Choosing a method creates its payment session, and Medusa keeps only the cart's latest one: so choices run one
   * after the other, a choice already overtaken by the shopper's next one is skipped, and Pay waits for the last.
   */
  let choosing = Promise.resolve()
  function select(key: string): Promise<void> {
    if (flow.state !== "idle") return choosing
    selected = key
    return (choosing = choosing.catch(() => {}).then(() => (key === selected ? open(key) : undefined)))
  }

  /** Opens the method's row: its fields go there (moved while empty: moving a loaded iframe reloads it). */
  async function open(key: string) {
    fields?.destroy()
    fields = extra = null
    panel.replaceChildren()
    rows.find((r) => r.method.key === key)?.body.append(panel, error)
    render()
    const m = methodOf(key)
    if (m?.kind === "card") return mountCard()
    if (!m) return
    const p = (made[key] ??= (await panels()).panel(m, o, cards !== null, panel, () => locale))
    if (key !== selected) return // the shopper chose another method meanwhile
    extra = p
    panel.replaceChildren(...p.nodes)
    render()
  }

  async function mountCard(fresh?: boolean): Promise<void> {
    // The card row keeps its height while the session and the gateway's fields load: a placeholder, not a gap.
    const slot = h("div", { className: "pgs-card", "aria-busy": "true" })
    panel.replaceChildren(slot)
    const asked = fresh ? null : early
    early = null
    check?.drop()
    let kept = false
    try {
      // The cart's unpaid card-fields session if it has one (the server decides: it sees the transaction, which the
      // store's answers leave out); otherwise a new one (Medusa replaces other sessions).
      cardSession = await (asked ?? startSession(api, o.cartId, { provider_id: CARD_PROVIDER, reuse: !fresh }))
      const d = cardSession.data
      // The terminal's language applies when the storefront chose none (the fields open in it).
      if (!o.locale && d.locale) setLocale(d.locale).catch(() => {})
      kept = !fresh
      fields = await mountCardFields(slot, d, locale, cardVars(o.appearance, d.css_variables, o.cssVariables), o.customerConfig, () => check?.complete())
      render() // Pay is clickable now
      void payCheckLoaded()
    } catch (e) {
      // A kept session the gateway no longer knows (expired, or lost): a fresh one, once.
      if (kept) return mountCard(true)
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
    if (flow.unsettled) return dispatch({ type: "pay", card: true }) // completes again, never pays anew
    if (m.kind === "card") {
      if (!fields) return
      // Another tab on this cart may have paid meanwhile: then this one shows that order instead of paying again.
      // (The other methods read no cart first: their session's one call is refused on a completed cart, see "starting".)
      // Read without a preflight, ahead of Pay where it could be (pay-check.ts); the route itself if its chunk is lost.
      const c = await payCheckLoaded()
      if ((cart = await (c ? c.take() : api.simple(`/pgs/carts/${cart!.id}/pay-check`).then((r) => r.cart))).completed_at)
        return dispatch({ type: "pay", card: false, placed: true })
      // Another tab replaced the cart's card session since these fields opened: pay in fields on the current one.
      if (sessionOf(cart!, CARD_PROVIDER)?.id !== cardSession?.id) return select("card").then(() => dispatch({ type: "note", key: "expired", alert: true }))
      return fields.validate() ? dispatch({ type: "pay", card: true }) : dispatch({ type: "note", key: "checkFields", alert: true })
    }
    const s = await extra?.start().catch((e) => void problem(e))
    if (!s) return
    if (typeof s === "string") return dispatch({ type: "note", key: s, alert: true })
    start = s
    dispatch({ type: "pay", card: false })
  }

  /** The one call (or page step) each state asks for; its answer, or its failure, is the next event. */
  async function run(f: Flow) {
    try {
      if (f.tries) await wait(delayOf(f.tries))
      if (f !== flow) return // overtaken while waiting
      const event = await call(f)
      if (event) dispatch(event)
    } catch (e) {
      if (f !== flow) return
      dispatch({ type: "fault", status: statusOf(e), note: refusalOf(e as HttpError), conflict: conflictOf(e as HttpError) })
      if (flow.note?.alert) o.onError?.(e) // told the shopper (a repeated call is not a failure yet)
    }
  }

  async function call(f: Flow): Promise<Event | void> {
    const session = f.session ?? f.unsettled
    switch (f.state) {
      case "loading":
        await load()
        dispatch({ type: "loaded" })
        // Opening the first method (the card's session and fields) is outside the flow: its failure is told here.
        if (selected) await select(selected).catch(problem)
        return
      case "idle":
        // The attempt ended without payment: a card needs a fresh session (and fields) for the next try, never the
        // one that just ended (a session the gateway forgot may still look unpaid here).
        if (f.renew && methodOf(selected)?.kind === "card") {
          fields?.destroy()
          fields = null
          await mountCard(true).catch(problem)
        }
        return
      case "submitting": {
        const e = await fields!.pay(payerOf(cart!))
        // The transaction goes with the completion (attached first, checked with the gateway): one store call.
        if (e.transaction_id) named = { payment_session_id: cardSession!.id, transaction_id: e.transaction_id }
        return { ...e, session: cardSession! }
      }
      case "starting":
        // One call: the session with the browser's data the store records for the gateway (and the shopper's IP). It
        // replaces the card's session: the card row, opened again, asks anew.
        early = null
        try {
          return { type: "session", session: await startSession(api, cart!.id, start!) }
        } catch (e) {
          // Refused on a cart another tab completed meanwhile: completing it answers that order, nothing is paid anew.
          if (statusOf(e) != 409 || !(cart = await (await payChecks()).readCart(api, cart!.id)).completed_at) throw e
          return { type: "session", session: sessionOf(cart, start!.provider_id)! }
        }
      case "completing": {
        const r = await api.complete(cart!.id, named && named.payment_session_id == session?.id ? { pgs_transaction: named } : undefined)
        if (r.type === "order") return { type: "order", order: r.order }
        // Medusa's refusal carries the cart with its sessions (the reason, a next step): no second call for them.
        cart = r.cart
        return { type: "refused", session: sessionOf(cart!, session!.provider_id) ?? session! }
      }
      case "fingerprint":
      case "challenge":
        return (await secure()).secureCall(f, api, acs!.host, t("challenge"), o, (c) => (challenge = c))
      case "leaving":
        rememberReturn({ cartId: cart!.id, sessionId: session!.id })
        if (f.step?.type === "redirect") location.assign(f.step.url)
        else if (f.step?.type === "form_submit") (await threeDs()).postForm(f.step.url, f.step.fields)
        return
      case "done":
        o.onOrder?.(f.order!)
    }
  }

  /** 3-D Secure's steps, and its dialog made the first time. */
  async function secure() {
    const m = await threeDs()
    acs ??= m.dialog(fieldset, () => (challenge?.cancel(), dispatch({ type: "cancel" })))
    render()
    return m
  }

  /**
   * The methods (with the cart's total) and the shopper's texts at once, and beside them the card's session when the
   * card may be the first method: one store round trip to the card fields (the card row's placeholder shows meanwhile).
   * Pay waits for that session (Medusa keeps only the cart's newest: a saved card's, made at Pay, must be the newest).
   */
  async function load() {
    if ((o.providers?.[0] ?? CARD_PROVIDER) == CARD_PROVIDER) (early = startSession(api, o.cartId, { provider_id: CARD_PROVIDER, reuse: true })).catch(() => {})
    ;[[methods, cards, cart]] = await Promise.all([listMethods(api, o.cartId, o), texts])
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

  // The shopper's texts load while the cart is read (a language's pack is a request of its own).
  const texts = setLocale(locale)
  const ready = run(flow)
  render()

  return {
    ready: ready.then(() => choosing.catch(() => {})), // a method that failed to open was told (problem), not thrown
    state: () => flow.state,
    setLocale,
    destroy() {
      gone = true
      check?.stop()
      challenge?.cancel()
      fields?.destroy()
      host.replaceChildren()
    },
  }
}

/** An amount in major units (as Medusa answers) in the shopper's locale: "Pay €12.50", "Betala 12,50 €". */
const money = (amount: number, currency: string, locale: string) => new Intl.NumberFormat(locale, { style: "currency", currency }).format(amount)

export type { TextKey }
