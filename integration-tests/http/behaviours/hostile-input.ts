/**
 * Every plugin route, fed what an attacker or a broken client sends — U+0000, lone UTF-16 surrogates, huge strings
 * in bodies and query strings, undecodable or NUL path ids, bodies nested thousands deep, huge arrays, numbers
 * beyond 2^53 — answers 4xx naming the field, never 5xx. So does Medusa's payment-session route with each PGS
 * provider, and the webhook route (unsigned: 401, whatever the body).
 */
import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, sep } from "node:path"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { request } from "undici"
import { captureLogs } from "../support/captured-logs"
import { BROWSER_INFO, ledger } from "../support/checkout"
import { PGS_FAMILY_PROVIDER_IDS } from "../support/seed"
import { PGS_PROVIDER_ID, storeBody } from "../support/store"

jest.setTimeout(300_000)

/** Strings for bodies and query values (JSON-escaped on the wire: "\u0000", "\ud800" are valid JSON). */
const HOSTILE_STRINGS = ["\u0000", "card\u0000id", "\ud800", "x\udc00y", "x".repeat(200_000)]
/** Raw path segments: NUL, undecodable bytes, an encoded lone surrogate, a huge id. */
const HOSTILE_SEGMENTS = ["%00", "a%00b", "%ff", "%E0%A4%A", "%ED%A0%80", "x".repeat(10_000)]

/** JSON texts that parse, each a problem of its own size or shape (Medusa's JSON body limit is 100 kB). */
const nested = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth)
const HOSTILE_SHAPES: Record<string, string> = {
  "nested 5,000 deep": nested(5_000),
  "arrays nested 5,000 deep": "[".repeat(5_000) + "]".repeat(5_000),
  "nested 33 deep": nested(33),
  "an array of 40,000 elements": `[${"0,".repeat(39_999)}0]`,
  "an array of 100,000 elements (over the limit)": `[${"0,".repeat(99_999)}0]`,
  "a string of 90,000 characters": JSON.stringify("x".repeat(90_000)),
  "a string of 5 MB (over the limit)": JSON.stringify("x".repeat(5 * 1024 * 1024)),
}
/** Numbers JSON carries but no double holds exactly (or at all): JSON.parse makes them 2^53+2, Infinity, 1.2e29. */
const HUGE_NUMBERS = ["9007199254740993", "1e400", "-1e400", "123456789012345678901234567890"]
/** An id in a fed route's path (the fed-routes test maps the same prefixes to ":id"). */
const ID_SEGMENT = /^(?:order_|pay_col_|payses_|pgscard_|pgspo_|pgsfu_|pgswh_|cus_|HOSTILE-)/
const literalSegments = (path: string, spell: (segment: string) => string) =>
  path.split("/").map((segment) => (segment && !ID_SEGMENT.test(segment) ? spell(segment) : segment)).join("/")
/**
 * Other spellings of one path: Express routes upper and mixed case and a trailing slash to the same route (its
 * matching is case-insensitive); double slashes and percent-encoded letters reach it where a proxy in front
 * normalises them. The plugin's guards must hold on each (src/api/route-path.ts).
 */
const SPELLINGS: Record<string, (path: string) => string> = {
  "upper case": (path) => literalSegments(path, (segment) => segment.toUpperCase()),
  "mixed case": (path) => literalSegments(path, (segment) => segment[0].toUpperCase() + segment.slice(1)),
  "a trailing slash": (path) => `${path}/`,
  "double slashes": (path) => path.replace(/\//g, "//"),
  "percent-encoded letters": (path) => path.replace(/^\/(\w)(\w)/, (_, first: string, second: string) => `/${first}%${second.charCodeAt(0).toString(16).toUpperCase()}`),
}

/** What src/api serves: each route file's exported methods, its path with every [param] as ":id". */
function servedRoutes(): { method: string; pattern: string }[] {
  const api = join(__dirname, "../../../src/api")
  const files = (readdirSync(api, { recursive: true }) as string[]).filter((f) => f.endsWith("route.ts"))
  return files.flatMap((file) => {
    const pattern = "/" + dirname(file).split(sep).join("/").replace(/\[[^\]]+\]/g, ":id")
    const methods = readFileSync(join(api, file), "utf8").matchAll(/export (?:const|async function|function) (GET|POST|DELETE|PUT|PATCH)\b/g)
    return [...methods].map(([, method]) => ({ method, pattern }))
  })
}

/** A body whose string leaf or added field `at` is replaced by raw JSON text. */
const withRaw = (body: Record<string, unknown>, raw: string) => JSON.stringify(body).replace('"__raw__"', raw)

type Route = { method: "GET" | "POST" | "DELETE"; path: string; body?: Record<string, unknown>; query?: Record<string, string>; as: "store" | "customer" | "admin" }

/** Every string leaf of `body` replaced by `value`, one at a time. */
function variants(body: Record<string, unknown>, value: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  const walk = (node: unknown, set: (v: unknown) => Record<string, unknown>) => {
    if (typeof node === "string") out.push(set(value))
    else if (node && typeof node === "object")
      for (const [k, v] of Object.entries(node)) walk(v, (x) => set(Array.isArray(node) ? Object.assign([...node], { [k]: x }) : { ...(node as object), [k]: x }))
  }
  walk(body, (x) => x as Record<string, unknown>)
  return out
}

export default storeBody("hostile input on every plugin route", (s) => {
  let routes: Route[]
  let headers: Record<Route["as"], Record<string, string>>

  // The runner resets the database before each test: each builds its own cart, session and customer.
  beforeEach(async () => {
    const customer = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: customer.token })
    const session = await s.initiatePaymentSession(cart.id, PGS_PROVIDER_ID, {}, customer.token)
    const browser = { user_agent: "Mozilla/5.0", accept_header: "text/html", java_enabled: false, color_depth: 24, screen_height: 800, screen_width: 1200, time_zone_offset: 0, language: "en-US" }
    const sessionPath = `/store/pgs/payment-sessions/${session.id}`
    const collectionId = (await s.api.get(`/store/carts/${cart.id}?fields=id,*payment_collection`, { headers: s.storeHeaders })).data.cart.payment_collection.id
    const payout = { reference: "hostile-1", amount: "12.50", currency_code: "inr", description: "Hostile", beneficiary: { type: "bank_account", account_number: "123456789012", account_name: "Asha Traders", ifsc: "HDFC0001234" } }
    headers = {
      store: { ...s.storeHeaders, "content-type": "application/json" },
      customer: { ...s.storeHeaders, "content-type": "application/json", authorization: `Bearer ${customer.token}` },
      admin: { ...(await s.adminHeaders()), "content-type": "application/json" },
    }
    routes = [
      { method: "POST", path: `${sessionPath}/transaction`, body: { transaction_id: "trx_hostile" }, as: "store" },
      { method: "POST", path: `${sessionPath}/client-info`, body: { browser_info: browser }, as: "store" },
      { method: "GET", path: `${sessionPath}/status`, as: "store" },
      { method: "POST", path: `${sessionPath}/three-ds/request-authentication`, body: { method_completed: true }, as: "store" },
      { method: "POST", path: `${sessionPath}/three-ds/authentication-completed`, body: { trans_status: "Y" }, as: "store" },
      { method: "GET", path: "/store/pgs/payment-methods", query: { cart_id: cart.id }, as: "store" },
      { method: "GET", path: `/store/pgs/payment-collections/${collectionId}`, query: { order_id: "order_hostile" }, as: "store" },
      { method: "POST", path: `/store/pgs/payment-collections/${collectionId}/payment-sessions`, body: { provider_id: PGS_PROVIDER_ID, data: { note: "x" } }, as: "customer" },
      { method: "POST", path: `/store/pgs/carts/${cart.id}/payment-sessions`, body: { provider_id: PGS_PROVIDER_ID, data: { note: "x" } }, as: "customer" },
      { method: "POST", path: `/store/pgs/payment-collections/${collectionId}/apply`, body: { payment_session_id: session.id }, as: "store" },
      { method: "GET", path: "/store/pgs/saved-cards", as: "customer" },
      { method: "DELETE", path: "/store/pgs/saved-cards/pgscard_hostile", as: "customer" },
      { method: "GET", path: `/admin/pgs/customers/${customer.customer.id}/saved-cards`, as: "admin" },
      { method: "DELETE", path: `/admin/pgs/customers/${customer.customer.id}/saved-cards/pgscard_hostile`, as: "admin" },
      { method: "GET", path: "/admin/pgs/orders/order_hostile/gateway", as: "admin" },
      { method: "POST", path: "/admin/pgs/orders/order_hostile/sync", body: {}, as: "admin" },
      { method: "GET", path: "/admin/pgs/payouts", query: { reference: "hostile", status: "PENDING" }, as: "admin" },
      { method: "POST", path: "/admin/pgs/payouts", body: payout, as: "admin" },
      { method: "GET", path: "/admin/pgs/payouts/pgspo_hostile", as: "admin" },
      { method: "GET", path: "/admin/pgs/attention", query: { show: "open", limit: "5" }, as: "admin" },
      { method: "POST", path: "/admin/pgs/attention/reread", body: { transaction_id: "tx_hostile" }, as: "admin" },
      { method: "POST", path: "/admin/pgs/attention/pgsfu_hostile/resolve", body: {}, as: "admin" },
      { method: "POST", path: "/admin/pgs/attention/pgsfu_hostile/remove", body: {}, as: "admin" },
      { method: "POST", path: "/admin/pgs/events/pgswh_hostile/process", body: {}, as: "admin" },
      { method: "GET", path: "/admin/pgs/settings/connection", as: "admin" },
      { method: "GET", path: "/admin/pgs/settings/terminals", as: "admin" },
      { method: "POST", path: "/admin/pgs/settings/terminals", body: { terminal_id: "HOSTILE-01", label: "Hostile", currency_codes: ["eur"] }, as: "admin" },
      { method: "POST", path: "/admin/pgs/settings/terminals/HOSTILE-01", body: { label: "Hostile" }, as: "admin" },
      { method: "DELETE", path: "/admin/pgs/settings/terminals/HOSTILE-01", as: "admin" },
      { method: "POST", path: "/hooks/pgs/three-ds/notification", body: { cres: "e30", threeDSSessionData: "x" }, as: "store" },
      { method: "GET", path: "/admin/pgs/health", as: "admin" },
      { method: "POST", path: "/admin/pgs/settings/test-connection", body: {}, as: "admin" },
      { method: "GET", path: "/admin/pgs/orders/order_hostile/pay-link", as: "admin" },
      { method: "POST", path: "/admin/pgs/orders/order_hostile/pay-link", body: { payment_collection_id: collectionId }, as: "admin" },
      {
        method: "POST",
        path: "/admin/pgs/orders/order_hostile/charge-saved-card",
        body: { payment_collection_id: collectionId, saved_card_id: "pgscard_hostile", idempotency_key: "hostile-key-0123456789", browser_info: browser },
        as: "admin",
      },
      // The pay link's pages take no publishable key: the shopper opens them from an email.
      { method: "GET", path: `/pgs/pay/${collectionId}`, query: { t: "hostile" }, as: "store" },
      { method: "GET", path: "/pgs/pay-result", query: { pgs_session: session.id, pgs_outcome: "success" }, as: "store" },
      // Start over on the result page: a POST from the page itself, with the same query.
      { method: "POST", path: "/pgs/pay-result", query: { pgs_session: session.id, pgs_outcome: "cancel" }, body: {}, as: "store" },
      // The widget's read before a card's Pay: no publishable key needed either (sent here all the same).
      { method: "GET", path: `/pgs/carts/${cart.id}/pay-check`, as: "store" },
      { method: "GET", path: "/admin/pgs/settings/card-testing", as: "admin" },
      { method: "POST", path: "/admin/pgs/settings/card-testing", body: { mode: "logged_in_only", hours: 1 }, as: "admin" },
    ]
  })

  /** `body` as an object (sent as JSON) or as JSON text sent as it is. */
  async function send(route: Route, path: string, body?: unknown, query?: Record<string, string>) {
    const qs = query ? "?" + Object.entries(query).map(([k, v]) => `${k}=${encodeQueryValue(v)}`).join("&") : ""
    const json = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body)
    const res = await request(`${s.medusaUrl}${path}${qs}`, { method: route.method, headers: headers[route.as], body: json })
    const text = await res.body.text()
    return { status: res.statusCode, text: text.slice(0, 300), what: `${route.method} ${path.slice(0, 120)}${qs.slice(0, 80)} ${json === undefined ? "" : json.slice(0, 160)}` }
  }

  /** Lone surrogates cannot be percent-encoded by encodeURIComponent; send their UTF-8-like bytes raw instead. */
  function encodeQueryValue(v: string): string {
    try {
      return encodeURIComponent(v)
    } catch {
      return "%ED%A0%80"
    }
  }

  const serverErrors = (results: { status: number; what: string; text: string }[]) => results.filter((r) => r.status >= 500).map((r) => `${r.status} ${r.what} → ${r.text}`)

  it("feeds every route the plugin serves (a new route is added to this list, or this fails)", () => {
    const served = servedRoutes().map(({ method, pattern }) => `${method} ${pattern}`)
    const fed = new Set(routes.map((r) => `${r.method} ${r.path.replace(/\/(?:order_|cart_|pay_col_|payses_|pgscard_|pgspo_|pgsfu_|pgswh_|cus_|HOSTILE-)[^/]*/g, "/:id")}`))
    fed.add("POST /hooks/pgs/webhooks") // fed in its own test below: unsigned, it is 401 whatever the body
    expect(served.length).toBeGreaterThan(30)
    expect(served.filter((route) => !fed.has(route))).toEqual([])
  })

  it("answers no 5xx to hostile strings in any body field", async () => {
    const results = []
    for (const route of routes.filter((r) => r.body)) {
      for (const value of HOSTILE_STRINGS) for (const body of variants(route.body!, value)) results.push(await send(route, route.path, body))
    }
    expect(results.length).toBeGreaterThan(50)
    expect(serverErrors(results)).toEqual([])
    // And they are refused, not taken: a NUL in a field is a 400 naming it.
    const nul = await send(routes[0], routes[0].path, { transaction_id: "trx\u0000x" })
    expect(nul.status).toBe(400)
    expect(nul.text).toMatch(/transaction_id/)
  })

  it("answers no 5xx to hostile query strings", async () => {
    const results = []
    for (const route of routes.filter((r) => r.method === "GET")) {
      for (const value of HOSTILE_STRINGS) {
        for (const key of [...Object.keys(route.query ?? {}), "fields", "limit"]) results.push(await send(route, route.path, undefined, { ...route.query, [key]: value }))
      }
    }
    expect(serverErrors(results)).toEqual([])
    const payouts = routes.find((r) => r.path === "/admin/pgs/payouts" && r.method === "GET")!
    const refused = await send(payouts, payouts.path, undefined, { reference: "a\u0000b" })
    expect([refused.status, JSON.parse(refused.text).errors]).toEqual([400, [{ field: "reference", message: "must not contain the invisible character NUL (U+0000), which pasted text sometimes carries" }]])
    // Also behind a second "?" in the query.
    const hidden = await request(`${s.medusaUrl}/admin/pgs/payouts?reference=ok?&fields=a%00b`, { headers: headers.admin })
    expect(hidden.statusCode).toBe(400)
    await hidden.body.dump()
  })

  it("answers no 5xx to undecodable, NUL or huge path ids", async () => {
    const results = []
    for (const route of routes) {
      const segments = route.path.split("/")
      // Each id-like segment (one with an underscore or a dash, or a terminal id) in turn.
      const idAt = segments.map((seg, i) => (/[_-]|^[A-Z0-9-]{5,}$/.test(seg) && i > 2 ? i : -1)).filter((i) => i >= 0)
      for (const i of idAt) {
        for (const raw of HOSTILE_SEGMENTS) {
          const path = [...segments.slice(0, i), raw, ...segments.slice(i + 1)].join("/")
          results.push(await send(route, path, route.body))
        }
      }
    }
    expect(results.length).toBeGreaterThan(40)
    expect(serverErrors(results)).toEqual([])
    // Refused saying which id and why, on the store's routes and the dashboard's alike.
    for (const path of ["/store/pgs/payment-sessions/%ff/status", "/admin/pgs/payouts/%ff"]) {
      const route = routes.find((r) => r.method === "GET" && r.as === (path.startsWith("/admin") ? "admin" : "store"))!
      const res = await send(route, path)
      expect([res.status, JSON.parse(res.text).errors]).toEqual([400, [{ field: "path", message: '"%ff" is not a valid id: it is not percent-encoded UTF-8' }]])
    }
  })

  it("answers no 5xx to bodies nested thousands deep, huge arrays, huge strings or numbers beyond 2^53 on any plugin route", async () => {
    const results = []
    for (const route of routes) {
      // Each shape as the whole body and as one more field of a valid body; each huge number in every string leaf.
      const named = async (name: string, body: string) => ({ ...(await send(route, route.path, body)), case: name })
      for (const [name, raw] of Object.entries(HOSTILE_SHAPES)) {
        results.push(await named(name, raw))
        results.push(await named(name, withRaw({ ...(route.body ?? {}), extra: "__raw__" }, raw)))
      }
      for (const raw of HUGE_NUMBERS) for (const body of variants(route.body ?? { extra: "" }, "__raw__")) results.push(await named(`the number ${raw}`, withRaw(body, raw)))
    }
    expect(results.length).toBeGreaterThan(300)
    expect(serverErrors(results)).toEqual([])
    // Refused before anything walks it, saying how deep is too deep.
    const deep = await send(routes[0], routes[0].path, withRaw({ transaction_id: "__raw__" }, nested(5_000)))
    expect([deep.status, JSON.parse(deep.text).errors]).toEqual([400, [{ field: "body", message: "is nested deeper than 32 levels" }]])
  })

  it("answers 401, not 5xx, to unsigned webhook deliveries of any shape", async () => {
    const statuses = new Set<number>()
    for (const raw of [...Object.values(HOSTILE_SHAPES), '{"a":"\\u0000"}', '{"a":"\\ud800"}']) {
      const res = await request(s.webhookUrl, { method: "POST", headers: { "content-type": "application/json" }, body: raw })
      await res.body.dump()
      statuses.add(res.statusCode)
    }
    // Over the receiver's 1 MB, the size is refused before anything else (413); everything else is unverified.
    expect([...statuses].sort()).toEqual([401, 413])
  })

  it("answers no 5xx on any spelling of any route: upper or mixed case, a trailing slash, double slashes, percent-encoded letters", async () => {
    const results: { status: number; what: string; text: string; spelling: string; hostile: string }[] = []
    for (const route of routes) {
      for (const [spelling, spell] of Object.entries(SPELLINGS)) {
        const path = spell(route.path)
        const tried = async (hostile: string, at: string, body?: unknown) => results.push({ ...(await send(route, at, body, route.query)), spelling, hostile })
        const [withNul] = route.body ? variants(route.body, "a\u0000b") : []
        if (withNul) await tried("U+0000 in a body field", path, withNul)
        if (route.method === "POST") await tried("a body nested 5,000 deep", path, nested(5_000))
        const segments = path.split("/")
        const id = segments.findIndex((segment) => ID_SEGMENT.test(segment))
        for (const raw of id < 0 ? [] : ["%ff", `${segments[id]}%00`]) await tried(`${raw} as the id`, [...segments.slice(0, id), raw, ...segments.slice(id + 1)].join("/"), route.body)
      }
    }
    expect(results.length).toBeGreaterThan(350)
    expect(serverErrors(results)).toEqual([])
    // Refused as on the path's usual spelling: each is a 400 naming what is wrong.
    expect(results.filter((r) => r.status !== 400).map((r) => `${r.status} ${r.spelling}: ${r.what}`)).toEqual([])
    for (const path of ["/STORE/pgs/payment-sessions/%ff/status", "/Store/pgs/payment-sessions/payses_%00/status", "/PGS/pay/%ff", "/ADMIN/PGS/orders/%ff/gateway"]) {
      const route = routes.find((r) => r.method === "GET" && r.as === (path.toLowerCase().startsWith("/admin") ? "admin" : "store"))!
      const res = await send(route, path)
      expect([path, res.status, res.text]).toEqual([path, 400, expect.stringContaining('"errors":[{"field":"path","message":')])
    }
  })

  /** A cart's payment collection, for a logged-in customer (the plugin's route needs the owner). */
  async function collectionOfNewCart() {
    const customer = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: customer.token })
    const auth = { ...s.storeHeaders, "content-type": "application/json", authorization: `Bearer ${customer.token}` }
    const collection = await request(`${s.medusaUrl}/store/payment-collections`, { method: "POST", headers: auth, body: JSON.stringify({ cart_id: cart.id }) })
    return { auth, collectionId: ((await collection.body.json()) as any).payment_collection.id as string }
  }

  /** Medusa's session route and ours, each in every spelling, for one collection. */
  const sessionRoutesOf = (collectionId: string) =>
    [`/store/payment-collections/${collectionId}/payment-sessions`, `/store/pgs/payment-collections/${collectionId}/payment-sessions`].flatMap((path) => [
      ["as usual", path],
      ...Object.entries(SPELLINGS).map(([spelling, spell]) => [spelling, spell(path)]),
    ])

  it("refuses card numbers and security codes in session data on every spelling of the session routes, and none reaches the database or the log", async () => {
    const CARD_NUMBER = "4111111111111111"
    const CVV = "739"
    const card = { type: "card", number: CARD_NUMBER, cvv: CVV, expiration_month: 12, expiration_year: 2030 }
    const { auth, collectionId } = await collectionOfNewCart()
    const log = captureLogs(s.container())
    const results: { what: string; status: number; text: string; nul: boolean }[] = []
    try {
      for (const [spelling, path] of sessionRoutesOf(collectionId)) {
        for (const [nul, data] of [
          [false, { payment_method: card }],
          [false, { note: "customer's card", card: { pan: "4111 1111 1111 1111", security_code: CVV } }],
          // Medusa's insert fails on U+0000 and it logs the whole statement, card and all.
          [true, { payment_method: card, note: "x\u0000y" }],
        ] as const) {
          const res = await request(`${s.medusaUrl}${path}`, { method: "POST", headers: auth, body: JSON.stringify({ provider_id: PGS_PROVIDER_ID, data }) })
          results.push({ what: `${spelling} ${path}`, status: res.statusCode, text: await res.body.text(), nul })
        }
      }
    } finally {
      log.stop()
    }
    const logged = log.text()
    expect(logged).not.toContain(CARD_NUMBER)
    expect(logged).not.toContain("4111 1111 1111 1111")
    expect(logged).not.toMatch(new RegExp(`(cvv|security_code)\\W{0,6}${CVV}`, "i"))
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const stored = await knex("payment_session").whereRaw("data::text like ?", [`%${CARD_NUMBER.slice(-8)}%`]).count("* as n")
    expect(Number(stored[0].n)).toBe(0)
    expect(results.filter((r) => r.status !== 400).map((r) => `${r.status} ${r.what}: ${r.text.slice(0, 200)}`)).toEqual([])
    for (const r of results.filter((r) => !r.nul)) expect(JSON.parse(r.text).errors[0]).toEqual({ field: expect.stringMatching(/^data\.(payment_method\.number|card\.pan)$/), message: expect.stringMatching(/^looks like a card number: card details are typed only into the gateway's card fields/) })
  })

  it("refuses a network token from the storefront on every spelling of the session routes, before any gateway call", async () => {
    const { auth, collectionId } = await collectionOfNewCart()
    const before = (await ledger(s.sandbox)).length
    const token = { type: "network-token", token_number: "4000000000001000", expiration_month: 12, expiration_year: 2030, cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=", eci: "05" }
    for (const [spelling, path] of sessionRoutesOf(collectionId)) {
      const res = await request(`${s.medusaUrl}${path}`, { method: "POST", headers: auth, body: JSON.stringify({ provider_id: PGS_PROVIDER_ID, data: { payment_method: token, browser_info: BROWSER_INFO } }) })
      const body = (await res.body.json()) as any
      expect([spelling, path, res.statusCode, body.errors]).toEqual([
        spelling,
        path,
        400,
        [{ field: "data.payment_method.type", message: expect.stringMatching(/^is "network-token": a network token is not taken from a storefront.*PGS_NETWORK_TOKENS_FROM_STOREFRONT/) }],
      ])
    }
    expect((await ledger(s.sandbox)).length).toBe(before)
  })

  describe("Medusa's payment-session route with each PGS provider", () => {
    const providers = [PGS_PROVIDER_ID, ...PGS_FAMILY_PROVIDER_IDS]
    const sessionData = (raw: string) => `{"provider_id":"__provider__","data":${raw}}`
    // Each a session request of its own; the ones Medusa takes run its whole workflow, so numbers share one.
    const cases: Record<string, string> = {
      "U+0000 in data.payment_method.token": '{"payment_method":{"type":"wallet-one","token":"tok\\u0000en"}}',
      "a lone surrogate in data.payment_method.token": '{"payment_method":{"type":"wallet-one","token":"tok\\ud800"}}',
      "U+0000 in a field name": '{"session\\u0000id":"x"}',
      "a lone surrogate in an unknown field": '{"note":["ok","\\udc00"]}',
      ...Object.fromEntries(Object.entries(HOSTILE_SHAPES).map(([name, raw]) => [name, `{"extra":${raw}}`])),
      "numbers beyond 2^53": `{"save_card":${HUGE_NUMBERS[0]},"extra":[${HUGE_NUMBERS.join(",")}]}`,
    }

    it("answers no 5xx, and 400 naming the field for text PostgreSQL cannot store", async () => {
      const customer = await s.registerCustomer()
      const cart = await s.createCart({ customerToken: customer.token })
      const auth = { ...s.storeHeaders, "content-type": "application/json", authorization: `Bearer ${customer.token}` }
      const collection = await request(`${s.medusaUrl}/store/payment-collections`, { method: "POST", headers: auth, body: JSON.stringify({ cart_id: cart.id }) })
      const collectionId = ((await collection.body.json()) as any).payment_collection.id
      const path = `${s.medusaUrl}/store/payment-collections/${collectionId}/payment-sessions`
      const results: { status: number; what: string; text: string; case: string }[] = []
      for (const provider of providers) {
        for (const [name, raw] of Object.entries(cases)) {
          const res = await request(path, { method: "POST", headers: auth, body: sessionData(raw).replace("__provider__", provider) })
          const text = (await res.body.text()).slice(0, 300)
          results.push({ status: res.statusCode, what: `${provider}: ${name}`, text, case: name })
        }
      }
      // The same route spelled otherwise: /STORE/…, a trailing slash, …; data nested 30,000 deep too (60 kB, under Medusa's 100 kB).
      const spelledCases = { "U+0000 in data.payment_method.token": cases["U+0000 in data.payment_method.token"], "a lone surrogate in an unknown field": cases["a lone surrogate in an unknown field"], "arrays nested 30,000 deep": `{"extra":${"[".repeat(30_000)}${"]".repeat(30_000)}}` }
      for (const [spelling, spell] of Object.entries(SPELLINGS)) {
        for (const [name, raw] of Object.entries(spelledCases)) {
          const res = await request(`${s.medusaUrl}${spell(new URL(path).pathname)}`, { method: "POST", headers: auth, body: sessionData(raw).replace("__provider__", PGS_PROVIDER_ID) })
          const text = (await res.body.text()).slice(0, 300)
          results.push({ status: res.statusCode, what: `${spelling}: ${name}`, text, case: name })
          expect([spelling, name, res.statusCode]).toEqual([spelling, name, 400])
        }
      }
      expect(serverErrors(results)).toEqual([])
      const refused = (name: string) => results.filter((r) => r.case === name)
      for (const r of refused("U+0000 in data.payment_method.token")) expect([r.status, r.text]).toEqual([400, expect.stringContaining("data.payment_method.token")])
      for (const r of refused("a lone surrogate in an unknown field")) expect([r.status, r.text]).toEqual([400, expect.stringContaining("data.note.1")])
      for (const r of refused("nested 5,000 deep")) expect([r.status, r.text]).toEqual([400, expect.stringContaining("nested deeper than 32 levels")])
    })
  })
})

