/**
 * A storefront, a shopper's browser and the dashboard, as plain HTTP against whichever build answers at `base`:
 * the same calls before and after the upgrade, so what changes is only the build behind them.
 */
import { request } from "undici"
import { BROWSER_INFO, type SandboxHarness } from "../../support/sandbox"
import { walletOneToken } from "../../sandbox/cards-support"

export type Http = { status: number; body: any }
export type Client = { get(path: string): Promise<Http>; post(path: string, body?: unknown): Promise<Http> }

export const CARD = "pp_pgs_pgs"
export const BANK = "pp_pgs-open-banking_pgs"

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`

/** Every answer a client got, for a suite that checks none was an error (side-by-side.spec.ts). */
export type Answer = { method: string; path: string; status: number; body: unknown }

export function client(base: string, headers: Record<string, string> = {}, onAnswer?: (answer: Answer) => void): Client {
  const call = async (method: string, p: string, body?: unknown): Promise<Http> => {
    const res = await fetch(`${base}${p}`, { method, headers: { "content-type": "application/json", ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    let json: unknown = text
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON: kept as text for the failure message
    }
    onAnswer?.({ method, path: p, status: res.status, body: json })
    return { status: res.status, body: json }
  }
  return { get: (p) => call("GET", p), post: (p, b) => call("POST", p, b ?? {}) }
}

/** Throws with the answer when a call did not answer 200: a setup step that failed says where. */
export function ok(res: Http, what: string): any {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`)
  return res.body
}

export type Shop = ReturnType<typeof shop>

export function shop(base: string, publishableKey: string, sandbox: SandboxHarness, onAnswer?: (answer: Answer) => void) {
  const store = (token?: string) => client(base, { "x-publishable-api-key": publishableKey, ...(token ? { authorization: `Bearer ${token}` } : {}) }, onAnswer)

  const cart = async (token?: string): Promise<string> => {
    const regions = ok(await store().get("/store/regions"), "regions").regions as any[]
    const region = regions.find((r) => r.currency_code === "eur").id
    const products = ok(await store().get(`/store/products?handle=sandbox-gift-card&region_id=${region}`), "products").products as any[]
    const created = await store(token).post("/store/carts", {
      region_id: region,
      email: `${unique("shopper")}@example.com`,
      items: [{ variant_id: products[0].variants[0].id, quantity: 1 }],
      billing_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" },
    })
    return ok(created, "cart").cart.id
  }

  /** A payment session of `provider` on the cart; answers the session as the store API shows it. */
  const session = async (cartId: string, provider: string, data: Record<string, unknown> | undefined, token?: string) => {
    const collection = ok(await store(token).post("/store/payment-collections", { cart_id: cartId }), "payment collection").payment_collection
    const res = ok(await store(token).post(`/store/payment-collections/${collection.id}/payment-sessions`, { provider_id: provider, ...(data ? { data } : {}) }), `${provider} session`)
    return (res.payment_collection.payment_sessions as any[]).find((p) => p.provider_id === provider)
  }

  /** A card (a wallet token with a cryptogram: approved without a challenge) on a new or given cart. */
  const cardCart = async (opts: { token?: string; saveCard?: boolean; savedCardId?: string; cartId?: string } = {}) => {
    const cartId = opts.cartId ?? (await cart(opts.token))
    const payment_method = opts.savedCardId
      ? { type: "saved_card", saved_card_id: opts.savedCardId }
      : { type: "wallet-one", token: walletOneToken({ pan: sandbox.testCard("frictionless_approved"), authMethod: "CRYPTOGRAM_3DS", cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=" }) }
    const s = await session(cartId, CARD, { payment_method, browser_info: BROWSER_INFO, ...(opts.saveCard ? { save_card: true } : {}) }, opts.token)
    return { cartId, sessionId: s.id as string }
  }

  const complete = (cartId: string, token?: string) => store(token).post(`/store/carts/${cartId}/complete`)

  /** A cart completed by card: its order. */
  const order = async (opts: Parameters<typeof cardCart>[0] = {}) => {
    const c = await cardCart(opts)
    const done = ok(await complete(c.cartId, opts.token), "completion")
    if (done.type !== "order") throw new Error(`completion gave no order: ${JSON.stringify(done).slice(0, 600)}`)
    return { ...c, orderId: done.order.id as string }
  }

  /** A bank payment begun: the first completion sends the shopper to the bank's page, whose address is answered. */
  const atTheBank = async () => {
    const cartId = await cart()
    const s = await session(cartId, BANK, undefined)
    ok(await store().post(`/store/pgs/payment-sessions/${s.id}/client-info`, { browser_info: BROWSER_INFO }), "client-info")
    const first = ok(await complete(cartId), "first completion")
    if (first.type !== "cart" || first.error?.type !== "payment_requires_more_error") throw new Error(`the bank payment asked for no redirect: ${JSON.stringify(first).slice(0, 600)}`)
    const status = ok(await store().get(`/store/pgs/payment-sessions/${s.id}/status`), "session status").payment_session
    if (status.next_action?.type !== "redirect") throw new Error(`no bank page to go to: ${JSON.stringify(status)}`)
    return { cartId, sessionId: s.id as string, bankPage: status.next_action.url as string }
  }

  const customer = async () => {
    const email = `${unique("customer")}@example.com`
    const password = "correct horse battery staple"
    const reg = ok(await store().post("/auth/customer/emailpass/register", { email, password }), "register")
    ok(await store(reg.token).post("/store/customers", { email, first_name: "Grace", last_name: "Hopper" }), "customer")
    return ok(await store().post("/auth/customer/emailpass", { email, password }), "customer login").token as string
  }

  const admin = async (credentials: { email: string; password: string }) => {
    const login = ok(await client(base, {}, onAnswer).post("/auth/user/emailpass", credentials), "admin login")
    return client(base, { authorization: `Bearer ${login.token}` }, onAnswer)
  }

  return { store, cart, session, cardCart, complete, order, atTheBank, customer, admin }
}

/** The shopper presses a button on the bank's page (a plain form post); the browser would go where it redirects. */
export async function atBankPage(bankPage: string, choice: "approve" | "decline" | "cancel") {
  const res = await request(`${bankPage}/${choice}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })
  await res.body.text()
  if (res.statusCode !== 303) throw new Error(`bank page ${choice}: ${res.statusCode}`)
}
