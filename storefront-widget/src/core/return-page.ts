/**
 * The page the gateway sends the shopper back to ({store}/checkout/return?pgs_session=…&pgs_outcome=…): completes
 * the cart again (idempotent) and shows progress until the webhook has decided the payment, or, once the order is
 * placed and the bank still confirms the payment, the order's number. `pgs_outcome` is only a hint; the server's
 * answer decides.
 */
import { connect, statusOf, wait, type Api, type Connection } from "./api.js"
import { lost } from "./flow.js"
import { completeCart, type Order } from "./cart.js"
import { h, resolveTarget, shell, type ShellOptions } from "./dom.js"
import { declineKey, english, resolveLocale, translator, type Locale, type TextKey } from "./i18n.js"

import { RETURN_KEY as KEY } from "./return-key.js"

/** For the core entry's completeCart (lazy.ts), which loads this bundle when first called. */
export { completeCart }

export type ReturnResult = { status: "approved" | "pending" | "declined" | "canceled" | "error"; order?: Order; key?: TextKey }

export type ReturnOptions = Connection & ShellOptions & {
  /** Default: the cart remembered before leaving. */
  cartId?: string
  locale?: string
  /** A link shown after a decline or cancel. */
  checkoutUrl?: string
  /** How long to follow a pending payment (default 10 minutes), polling every `pollMs` (default 2 s). */
  timeoutMs?: number
  pollMs?: number
  onResult?(result: ReturnResult): void
}

const SETTLED: Record<string, ReturnResult["status"]> = { authorized: "approved", captured: "approved", error: "declined", canceled: "canceled" }

export function mountReturn(target: Element | string, o: ReturnOptions): { result: Promise<ReturnResult>; setLocale(l: string): Promise<void> } {
  const api = connect(o)
  const root = resolveTarget(target)
  const q = new URLSearchParams(location.search)
  const kept = JSON.parse(sessionStorage.getItem(KEY) ?? "{}")
  const cartId: string | undefined = o.cartId ?? kept.cartId
  const sessionId: string | undefined = q.get("pgs_session") ?? kept.sessionId
  let t = english
  let locale: Locale = "en-US"
  let key: TextKey = "confirming"
  let vars: Record<string, string> = {}
  const text = h("p", { className: "pgs-status", role: "status" })
  const back = h("a", { href: o.checkoutUrl ?? "", hidden: true })
  const box = shell(root, o)
  box.append(text, back)
  const show = (k: TextKey, state: string, alert = false, v: Record<string, string> = {}) => {
    key = k
    vars = v
    root.setAttribute("data-pgs-result", state)
    text.setAttribute("role", alert ? "alert" : "status")
    paint()
  }
  const paint = () => {
    box.lang = locale
    text.textContent = t(key, vars)
    back.textContent = t("back")
  }
  const setLocale = async (l: string) => {
    locale = resolveLocale(l)
    t = await translator(locale)
    paint()
  }

  const told = (r: ReturnResult) => {
    const texts = { approved: "paid", pending: "pending", declined: "declined", canceled: "canceled", error: "error" } as const
    const failed = r.status !== "approved" && r.status !== "pending"
    if (r.status === "pending" && r.order) show("placedPending", "pending", false, { id: String(r.order.display_id ?? r.order.id) })
    else show(r.key ?? texts[r.status], r.status, failed)
    back.hidden = !failed || !o.checkoutUrl
    if (r.status !== "pending") sessionStorage.removeItem(KEY)
    o.onResult?.(r)
    return r
  }

  const result = (async (): Promise<ReturnResult> => {
    await setLocale(o.locale ?? navigator.language)
    if (!cartId) return { status: "error" }
    let order: Order | undefined
    try {
      const r = await completeCart(api, cartId, (why) => show(why, "confirming"))
      if (r.type === "order") order = r.order
    } catch (e) {
      // A refused cart (400: the webhook already failed the session) is answered by the session's status below.
      if (lost(statusOf(e)) || !sessionId) throw e
    }
    if (!sessionId) return { status: order ? "approved" : "declined", order }
    // With an order placed (the bank still confirms the payment), the shopper learns it at once; the webhook decides later.
    const s = await follow(api, sessionId, () => show("pending", "pending"), o, !!order)
    const status = SETTLED[s.status] ?? "pending"
    if (status === "approved" && !order) {
      const again = await completeCart(api, cartId, () => {})
      if (again.type === "order") order = again.order
    }
    if (status !== "declined") return { status, order }
    // pgs_outcome is only a hint: it names a cancel the gateway reports without a code.
    const key = declineKey(s.error?.code ?? s.gateway_status, q.get("pgs_outcome") === "cancel" && !s.error?.code ? "canceled" : s.status)
    return { status: key === "canceled" ? "canceled" : "declined", key }
  })()
    .catch((): ReturnResult => ({ status: "error" }))
    .then(told)
  // The order is told at once; a shopper who stays also sees the bank's answer when it comes (onResult again).
  void result.then(async (r) => {
    if (r.status !== "pending" || !r.order || !sessionId) return
    const s = await follow(api, sessionId, () => {}, o, false)
    if (SETTLED[s.status]) told({ status: SETTLED[s.status]!, order: r.order, key: SETTLED[s.status] === "declined" ? declineKey(s.error?.code ?? s.gateway_status, s.status) : undefined })
  }).catch(() => {})

  return { result, setLocale }
}

type SessionStatus = { status: string; gateway_status: string | null; error: { code: string | null } | null }

/** The payment session's status until the webhook decided it (or the deadline passed: then it is still pending). */
async function follow(api: Api, sessionId: string, onPending: () => void, o: ReturnOptions, once: boolean): Promise<SessionStatus> {
  const end = Date.now() + (o.timeoutMs ?? 600_000)
  for (;;) {
    let s: SessionStatus | null = null
    try {
      s = (await api.fetch(`/store/pgs/payment-sessions/${sessionId}/status`)).payment_session
    } catch (e) {
      if (!lost(statusOf(e)) || Date.now() > end) throw e // a lost answer: asked again at the next poll
    }
    if (s && (SETTLED[s.status] || once || Date.now() > end)) return s
    onPending()
    await wait(o.pollMs ?? 2000)
  }
}
