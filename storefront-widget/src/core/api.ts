/**
 * The widget's only way to the server: the Medusa store API (and our store/pgs routes). Either a
 * @medusajs/js-sdk instance (its `client.fetch` throws an error with `status`, exactly what we need) or plain
 * fetch with a base URL and a publishable key. Never the gateway API.
 */
import type { Note } from "./flow.js"

export type Fetcher = (path: string, init?: { method?: string; body?: unknown; query?: Record<string, string> }) => Promise<any>

/** The part of @medusajs/js-sdk's `Medusa` the widget uses; the real SDK satisfies it, nothing requires it. */
export type SdkLike = { client: { fetch: Fetcher; getToken?: () => Promise<string | null | undefined> } }

export type Connection =
  | { sdk: SdkLike }
  | { baseUrl: string; publishableKey: string; authToken?: () => string | null | undefined; credentials?: RequestCredentials }

/** An HTTP answer other than 2xx. A thrown error without `status` is a network failure. */
export type HttpError = Error & { status?: number; body?: any }

/**
 * `signedIn()`: whether a customer may be logged in, so customer-only routes are worth asking (a guest's call
 * would only log a 401 in the console): a bearer token, or cookie/session auth, where only the server knows.
 * `complete(cartId, body?)`: Medusa's cart completion (the body may name the card's transaction: checkout.ts).
 * `simple(path)`: a GET of the backend's (not the store API's) with no header of ours and no credentials, which a
 * browser sends without a CORS preflight (a round trip fewer); it fails when the SDK's client names no base URL.
 */
export type Api = { fetch: Fetcher; complete(cartId: string, body?: object): Promise<any>; signedIn(): Promise<boolean>; simple(path: string): Promise<any> }

/** The answer's JSON, or an HttpError. */
async function answer(res: Response) {
  const body = await res.json().catch(() => null)
  if (!res.ok) throw Object.assign(new Error(body?.message ?? res.statusText), { status: res.status, body })
  return body
}

export function connect(c: Connection): Api {
  let fetcher: Fetcher
  let signedIn: Api["signedIn"]
  let base: string | undefined
  if ("sdk" in c) {
    const client = c.sdk.client as SdkLike["client"] & { config?: { auth?: { type?: string }; baseUrl?: string } }
    fetcher = client.fetch.bind(client)
    signedIn = async () => !client.getToken || client.config?.auth?.type === "session" || !!(await client.getToken())
    base = client.config?.baseUrl
  } else {
    base = c.baseUrl
    fetcher = async (path, init = {}) => {
      const url = new URL(c.baseUrl.replace(/\/$/, "") + path)
      for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, v)
      const headers: Record<string, string> = { "x-publishable-api-key": c.publishableKey }
      const token = c.authToken?.()
      if (token) headers.authorization = `Bearer ${token}`
      if (init.body !== undefined) headers["content-type"] = "application/json"
      return answer(
        await fetch(url, {
          method: init.method ?? "GET",
          headers,
          body: init.body === undefined ? undefined : JSON.stringify(init.body),
          credentials: c.credentials ?? "omit",
        }),
      )
    }
    signedIn = async () => !!c.authToken?.() || c.credentials === "include"
  }
  return {
    fetch: fetcher,
    complete: (id, body) => fetcher(`/store/carts/${id}/complete`, { method: "POST", body }),
    signedIn,
    simple: async (path) => answer(await fetch(base!.replace(/\/$/, "") + path, { credentials: "omit" })),
  }
}

export const statusOf = (e: unknown) => (e as HttpError)?.status

/**
 * A refusal the shopper is told at once, never repeated: the store's card-testing guard (429; the server's own answer
 * says for how long, the widget's text only "later", to stay within the first-paint budget), or the gateway away or
 * refusing the store (the server's code pgs_gateway_unavailable: 503 from our routes, 400 from Medusa's session
 * route). The js-sdk keeps only the message, so its words are matched too.
 */
export const refusalOf = (x?: HttpError): Note | false =>
  x?.status == 429
    ? { key: "many", alert: true, n: x.body?.minutes }
    : (x?.status === 503 || x?.body?.code === "pgs_gateway_unavailable" || /unavailable right now/.test(x?.message!)) && { key: "unavailable", alert: true }

/**
 * The completion refused the transaction it was given: code pgs_transaction_conflict (Medusa's own 409 says
 * invalid_state_error), or, through the js-sdk, which keeps only the message, its words.
 */
export const conflictOf = (x?: HttpError) => /_conflict|payment session/.test(x?.body?.code + x?.message!)

export const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
