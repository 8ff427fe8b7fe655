/**
 * The dashboard's Payment Gateway settings through the admin API: an admin session is required, every invalid
 * field is named, secrets never leave the server in full, the connection test fetches a real token, and a terminal
 * change is used by the very next payment session (the providers read the settings at every session, no restart).
 */
import { admin } from "../support/admin-pgs"
import { PGS_PROVIDER_ID, storeBody } from "../support/store"
import { sessionFields } from "../../support/session-fields"
import { directCart, walletPayment } from "../support/checkout-direct"
import { sessionStatus } from "../support/redirect"
import { GATEWAY_UNAVAILABLE_MESSAGE } from "../../../src/payments/gateway-unavailable"

const fieldsOf = (data: any) => Object.fromEntries((data.errors ?? []).map((e: any) => [e.field, e.message]))

export default storeBody("admin: payment gateway settings", (s) => {
  it("refuses every /admin/pgs route without an admin session", async () => {
    const anonymous = { "content-type": "application/json" }
    const calls: Array<[("get" | "post" | "delete"), string]> = [
      ["get", "/admin/pgs/settings/terminals"],
      ["post", "/admin/pgs/settings/terminals"],
      ["post", "/admin/pgs/settings/terminals/pgsterm_x"],
      ["delete", "/admin/pgs/settings/terminals/pgsterm_x"],
      ["get", "/admin/pgs/settings/connection"],
      ["post", "/admin/pgs/settings/test-connection"],
      ["get", "/admin/pgs/orders/order_x/gateway"],
      ["post", "/admin/pgs/orders/order_x/sync"],
      ["get", "/admin/pgs/customers/cus_x/saved-cards"],
      ["delete", "/admin/pgs/customers/cus_x/saved-cards/pgscard_x"],
    ]
    for (const [method, path] of calls) expect([method, path, (await admin(s, method, path, {}, anonymous)).status]).toEqual([method, path, 401])
    // A customer's token is not an admin session either.
    const shopper = await s.registerCustomer()
    const asCustomer = await admin(s, "get", "/admin/pgs/settings/terminals", undefined, { authorization: `Bearer ${shopper.token}` })
    expect(asCustomer.status).toBe(401)
  })

  it("shows the connection with the client secret and client key masked, and the catalogue of terminal values", async () => {
    const res = await admin(s, "get", "/admin/pgs/settings/connection")
    expect(res.status).toBe(200)
    const { client_secret, client_key } = s.sandbox.config
    expect(res.data.connection).toMatchObject({
      configured: true,
      settings: {
        realm: s.sandbox.config.realm,
        client_id: s.sandbox.config.client_id,
        client_secret: `••••••${client_secret.slice(-4)}`,
        client_key: `••••••${client_key.slice(-4)}`,
        merchant_public_key: "configured",
        webhook_public_key: "configured",
        default_terminal_id: "SBX-ALL-001",
      },
    })
    const text = JSON.stringify(res.data)
    expect(text).not.toContain(client_secret)
    expect(text).not.toContain(client_key)
    expect(text).not.toContain("BEGIN PUBLIC KEY")
    expect(res.data.catalog.css_variables).toHaveLength(15)
    // The build that answers, as CHANGELOG.md names it.
    expect(res.data.plugin_version).toBe(require("../../../package.json").version)
    expect(res.data.catalog.locales).toEqual(["en-US", "bs-BA", "ro-RO", "sv-SE"])
    expect(res.data.catalog.methods).toEqual(expect.arrayContaining(["pgs", "pgs-upi", "pgs-hosted"]))
  })

  it("tests the connection by fetching a new token, reporting realm and latency", async () => {
    const before = (await s.sandbox.control("GET", "/_sandbox/stats")).body
    const res = await admin(s, "post", "/admin/pgs/settings/test-connection")
    expect(res.status).toBe(200)
    expect(res.data.connection_test).toEqual({ ok: true, realm: s.sandbox.config.realm, latency_ms: expect.any(Number) })
    const after = (await s.sandbox.control("GET", "/_sandbox/stats")).body
    expect(after.tokenRequests).toBeGreaterThan(before.tokenRequests)
  })

  it("reports a failed connection test with the reason and no credential", async () => {
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /auth/realms/:realm/protocol/openid-connect/token", kind: "status", status: 401, count: 1 })
    const res = await admin(s, "post", "/admin/pgs/settings/test-connection")
    expect(res.status).toBe(200)
    expect(res.data.connection_test).toMatchObject({ ok: false, realm: s.sandbox.config.realm, error: expect.stringMatching(/client credentials/) })
    expect(JSON.stringify(res.data)).not.toContain(s.sandbox.config.client_secret)
  })

  it("names every invalid field of a terminal setting", async () => {
    const res = await admin(s, "post", "/admin/pgs/settings/terminals", {
      terminal_id: "T1",
      currency_codes: ["euro"],
      transaction_type: "SALE",
      integration_type: "IFRAME",
      locale: "de-DE",
      css_variables: { "--lib-accent-color": "red; background: url(x)", "--my-color": "blue" },
      enabled_methods: ["pgs-teleport"],
      hosted_page_options: { number_of_instalments: 9 },
    })
    expect(res.status).toBe(400)
    expect(res.data.type).toBe("invalid_data")
    expect(fieldsOf(res.data)).toEqual({
      terminal_id: "At least 5 characters",
      "currency_codes.0": "must be a three-letter currency code, such as EUR",
      transaction_type: "must be one of AUTHORIZE, PURCHASE",
      integration_type: "must be one of EMBEDDED_FIELDS, HOSTED_PAYMENT_PAGE, DIRECT_API",
      locale: "must be one of en-US, bs-BA, ro-RO, sv-SE",
      "css_variables.--lib-accent-color": "must not contain ; { } < > quotes or backslashes",
      "css_variables.--my-color": expect.stringMatching(/^is not an Embedded Fields CSS variable/),
      "enabled_methods.0": expect.stringMatching(/^must be one of pgs, /),
      "hosted_page_options.number_of_instalments": "At most 6",
    })
    expect((await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "T".repeat(21) })).data.errors).toEqual([
      { field: "terminal_id", message: "At most 20 characters" },
    ])
    // No method at all would leave shoppers with nothing to pay with (null is every method).
    expect((await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", enabled_methods: [] })).data.errors).toEqual([
      { field: "enabled_methods", message: "choose at least one method, or All methods: with none, shoppers have no way to pay" },
    ])
    // In a form's words: a missing field is "Required", a long label "At most 100 characters".
    expect((await admin(s, "post", "/admin/pgs/settings/terminals", { label: "L".repeat(101) })).data.errors).toEqual([
      { field: "terminal_id", message: "Required" },
      { field: "label", message: "At most 100 characters" },
    ])
  })

  it("enforces the notification URL override as the spec says: https, a host, at most 256 characters, Direct API only", async () => {
    const direct = { terminal_id: "SBX-CARDS-01", integration_type: "DIRECT_API" }
    for (const bad of ["http://shop.example/3ds", "https://", "not a url", `https://shop.example/${"a".repeat(240)}`]) {
      const res = await admin(s, "post", "/admin/pgs/settings/terminals", { ...direct, notification_url: bad })
      expect([bad.slice(0, 30), res.status, Object.keys(fieldsOf(res.data))]).toEqual([bad.slice(0, 30), 400, ["notification_url"]])
    }
    const embedded = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-CARDS-01", notification_url: "https://shop.example/3ds" })
    expect(embedded.status).toBe(400)
    expect(fieldsOf(embedded.data).notification_url).toMatch(/only for the Direct API/)

    const ok = await admin(s, "post", "/admin/pgs/settings/terminals", { ...direct, notification_url: `https://shop.example/${"a".repeat(256 - 21)}` })
    expect(ok.status).toBe(201)
    expect(ok.data.terminal.notification_url).toHaveLength(256)
    // Switching the terminal away from Direct API while it keeps the override is refused too.
    const switched = await admin(s, "post", `/admin/pgs/settings/terminals/${ok.data.terminal.id}`, { integration_type: "EMBEDDED_FIELDS" })
    expect(switched.status).toBe(400)
    expect(Object.keys(fieldsOf(switched.data))).toEqual(["notification_url"])
    const cleared = await admin(s, "post", `/admin/pgs/settings/terminals/${ok.data.terminal.id}`, { integration_type: "EMBEDDED_FIELDS", notification_url: null })
    expect(cleared.status).toBe(200)
    expect(cleared.data.terminal).toMatchObject({ integration_type: "EMBEDDED_FIELDS", notification_url: null })
  })

  it("creates, lists, changes and deletes terminals, keeping one default", async () => {
    const a = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-CARDS-01", label: "Cards", currency_codes: ["EUR"], is_default: true })
    expect(a.status).toBe(201)
    expect(a.data.terminal).toMatchObject({ terminal_id: "SBX-CARDS-01", label: "Cards", currency_codes: ["eur"], region_ids: [], transaction_type: "AUTHORIZE", integration_type: "EMBEDDED_FIELDS", is_default: true })
    const b = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", is_default: true })
    const list = await admin(s, "get", "/admin/pgs/settings/terminals")
    expect(list.data.terminals.map((t: any) => [t.terminal_id, t.is_default])).toEqual([["SBX-CARDS-01", false], ["SBX-ALL-001", true]])
    expect((await admin(s, "post", "/admin/pgs/settings/terminals/pgsterm_unknown", { label: "x" })).status).toBe(404)
    const del = await admin(s, "delete", `/admin/pgs/settings/terminals/${b.data.terminal.id}`)
    expect(del.data).toEqual({ id: b.data.terminal.id, object: "pgs_terminal_setting", deleted: true })
    expect((await admin(s, "get", "/admin/pgs/settings/terminals")).data.terminals.map((t: any) => t.terminal_id)).toEqual(["SBX-CARDS-01"])
  })

  it("uses a terminal change in the very next payment session, without a restart", async () => {
    const before = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
    expect(sessionFields(before.data)).toMatchObject({ terminal_id: "SBX-ALL-001", transaction_type: "AUTHORIZE" })

    const created = await admin(s, "post", "/admin/pgs/settings/terminals", {
      terminal_id: "SBX-CARDS-01",
      currency_codes: ["eur"],
      transaction_type: "PURCHASE",
      locale: "sv-SE",
      instalments: true,
      css_variables: { "--lib-accent-color": "#0a7d32" },
    })
    expect(created.status).toBe(201)
    const after = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
    expect(sessionFields(after.data)).toMatchObject({ terminal_id: "SBX-CARDS-01", transaction_type: "PURCHASE", locale: "sv-SE", instalments: true, css_variables: { "--lib-accent-color": "#0a7d32" } })

    await admin(s, "post", `/admin/pgs/settings/terminals/${created.data.terminal.id}`, { transaction_type: "AUTHORIZE", locale: "ro-RO" })
    const changed = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
    expect(sessionFields(changed.data)).toMatchObject({ terminal_id: "SBX-CARDS-01", transaction_type: "AUTHORIZE", locale: "ro-RO" })

    await admin(s, "delete", `/admin/pgs/settings/terminals/${created.data.terminal.id}`)
    const removed = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
    expect(sessionFields(removed.data).terminal_id).toBe("SBX-ALL-001")
  })

  const terminalItems = async (terminalId: string) =>
    (await admin(s, "get", "/admin/pgs/attention?show=all&limit=50")).data.items.filter((i: any) => i.kind === "terminal_refused" && i.sentence.includes(`terminal ${terminalId} `))

  it("lists a terminal the gateway does not know on Needs attention, counting refused payments, tells the shopper payments are unavailable, and closes it when the terminals change", async () => {
    for (const t of (await admin(s, "get", "/admin/pgs/settings/terminals")).data.terminals) await admin(s, "delete", `/admin/pgs/settings/terminals/${t.id}`)
    const typo = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-0O1", currency_codes: ["eur"] })
    expect(typo.status).toBe(201)
    const startPayment = async () => {
      const collection = await s.api.post("/store/payment-collections", { cart_id: (await s.createCart()).id }, { headers: s.storeHeaders })
      return s.api.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, { provider_id: PGS_PROVIDER_ID }, { headers: s.storeHeaders, validateStatus: () => true })
    }
    for (const _ of [1, 2]) {
      const refused = await startPayment()
      expect(refused.status).toBe(400)
      expect(refused.data.code).toBe("pgs_gateway_unavailable")
    }
    const itemOf = () => terminalItems("SBX-ALL-0O1")
    const [open, ...others] = await itemOf()
    expect(others).toEqual([])
    expect(open).toMatchObject({ title: "Terminal refused", needs_person: true, currency_code: "eur", actions: ["resolve"] })
    expect(open.sentence).toMatch(/^Payments on terminal SBX-ALL-0O1 \(EUR\) fail: the gateway answers "Terminal Not Found" \(2013\).* 2 payment attempts refused since /)

    // The admin corrects the terminal: the item closes, and the next payment starts.
    await admin(s, "post", `/admin/pgs/settings/terminals/${typo.data.terminal.id}`, { terminal_id: "SBX-ALL-001" })
    const [closed] = await itemOf()
    expect(closed).toMatchObject({ id: open.id, needs_person: false })
    expect(closed.sentence).toMatch(/The terminal settings for it were changed since/)
    const started = await startPayment()
    expect(started.status).toBe(200)

    // Wrong again: the same item opens again, counting afresh.
    await admin(s, "post", `/admin/pgs/settings/terminals/${typo.data.terminal.id}`, { terminal_id: "SBX-ALL-0O1" })
    expect((await startPayment()).status).toBe(400)
    const [again] = await itemOf()
    expect(again).toMatchObject({ id: open.id, needs_person: true })
    expect(again.sentence).toMatch(/ 1 payment attempt refused since /)
    await admin(s, "delete", `/admin/pgs/settings/terminals/${typo.data.terminal.id}`)
  })

  it("lists a terminal the gateway does not know when the hosted page is made for it at the cart's completion, closing it only by a change that reaches that terminal", async () => {
    for (const t of (await admin(s, "get", "/admin/pgs/settings/terminals")).data.terminals) await admin(s, "delete", `/admin/pgs/settings/terminals/${t.id}`)
    const typo = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-HPP-0O1", currency_codes: ["eur"], integration_type: "HOSTED_PAYMENT_PAGE" })
    expect(typo.status).toBe(201)
    const cart = await s.createCart({ currency_code: "eur" })
    const session = await s.initiatePaymentSession(cart.id, PGS_PROVIDER_ID)
    expect((await s.completeCart(cart.id)).data.type).toBe("cart")
    // The shopper is told what is true (payments are unavailable), not to check details they never typed.
    expect(await sessionStatus(s, session.id)).toMatchObject({ status: "error", error: { message: GATEWAY_UNAVAILABLE_MESSAGE } })
    const [open, ...others] = await terminalItems("SBX-HPP-0O1")
    expect(others).toEqual([])
    expect(open).toMatchObject({ title: "Terminal refused", needs_person: true, currency_code: "eur" })
    expect(open.sentence).toMatch(/^Payments on terminal SBX-HPP-0O1 \(EUR\) fail: the gateway answers ".+" \(2013\).* 1 payment attempt refused since \d{4}-\d\d-\d\d \d\d:\d\d UTC, the last at /)

    // Another currency's terminal changes: nothing this item is about, so it stays open.
    const pln = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", currency_codes: ["pln"], label: "Złoty" })
    await admin(s, "post", `/admin/pgs/settings/terminals/${pln.data.terminal.id}`, { label: "PLN" })
    expect((await terminalItems("SBX-HPP-0O1"))[0]).toMatchObject({ id: open.id, needs_person: true })
    // Its own terminal's setting is corrected: closed, saying how many were refused while it was open.
    await admin(s, "post", `/admin/pgs/settings/terminals/${typo.data.terminal.id}`, { terminal_id: "SBX-ALL-001" })
    const [closed] = await terminalItems("SBX-HPP-0O1")
    expect(closed).toMatchObject({ id: open.id, needs_person: false })
    expect(closed.sentence).toMatch(/were changed since.* 1 payment attempt had been refused since \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/)
    for (const id of [typo.data.terminal.id, pln.data.terminal.id]) await admin(s, "delete", `/admin/pgs/settings/terminals/${id}`)
  })

  it("lists a terminal the gateway made inactive after the session started, when the cart's authorization is refused for it", async () => {
    const { cart } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    await s.sandbox.control("POST", `/_sandbox/terminals/${s.sandbox.terminalId}`, { active: false })
    try {
      expect((await s.completeCart(cart.id)).data.type).toBe("cart")
    } finally {
      await s.sandbox.control("POST", `/_sandbox/terminals/${s.sandbox.terminalId}`, { active: true })
    }
    const [item] = await terminalItems(s.sandbox.terminalId)
    expect(item).toMatchObject({ title: "Terminal refused", needs_person: true })
    expect(item.sentence).toMatch(/the gateway answers "Terminal inactive" \(2014\)/)
    expect((await admin(s, "post", `/admin/pgs/attention/${item.id}/resolve`)).data).toEqual({ id: item.id, state: "done" })
  })

  it("names the field of every bad method name: an unknown method or locale, too long, empty, a NUL or a line break", async () => {
    const res = await admin(s, "post", "/admin/pgs/settings/terminals", {
      terminal_id: "SBX-ALL-001",
      method_names: {
        "pgs-teleport": { "en-US": "Beam me up" },
        "pgs-wallets": { "de-DE": "Andere Wallets", "sv-SE": "W".repeat(61), "ro-RO": "   " },
        pgs: { "bs-BA": "Kartica\nnova" },
      },
    })
    expect(res.status).toBe(400)
    expect(fieldsOf(res.data)).toEqual({
      "method_names.pgs-teleport": expect.stringMatching(/^is not a method identifier \(one of pgs, /),
      "method_names.pgs-wallets.de-DE": "is not a locale (one of en-US, bs-BA, ro-RO, sv-SE)",
      "method_names.pgs-wallets.sv-SE": "At most 60 characters",
      "method_names.pgs-wallets.ro-RO": "Required",
      "method_names.pgs.bs-BA": expect.stringMatching(/^must not contain control characters/),
    })
    // What PostgreSQL cannot hold is refused before the route (hostile-input.ts), naming the field just the same.
    const unstorable = await admin(s, "post", "/admin/pgs/settings/terminals", {
      terminal_id: "SBX-ALL-001",
      method_names: { pgs: { "en-US": "Card\u0000" }, "pgs-upi": { "en-US": "UPI \ud800" } },
    })
    expect(unstorable.status).toBe(400)
    expect(fieldsOf(unstorable.data)).toEqual({
      "method_names.pgs.en-US": "must not contain the invisible character NUL (U+0000), which pasted text sometimes carries",
      "method_names.pgs-upi.en-US": expect.stringMatching(/unpaired UTF-16 surrogate/),
    })
    // Changing a terminal is held to the same rules; 60 characters are fine.
    const ok = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", method_names: { "pgs-wallets": { "en-US": "W".repeat(60) } } })
    expect(ok.status).toBe(201)
    expect(ok.data.terminal.method_names).toEqual({ "pgs-wallets": { "en-US": "W".repeat(60) } })
    const bad = await admin(s, "post", `/admin/pgs/settings/terminals/${ok.data.terminal.id}`, { method_names: { "pgs-wallets": { "xx-XX": "Wallet" } } })
    expect([bad.status, Object.keys(fieldsOf(bad.data))]).toEqual([400, ["method_names.pgs-wallets.xx-XX"]])
    await admin(s, "delete", `/admin/pgs/settings/terminals/${ok.data.terminal.id}`)
  })

  it("gives the shopper's method list the names the admin set for the cart's terminal, per locale", async () => {
    const names = { "pgs-wallets": { "en-US": "PayFriend and others", "sv-SE": "Swish och andra" }, pgs: { "sv-SE": "Bankkort" } }
    const created = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", currency_codes: ["usd"], method_names: names })
    expect(created.status).toBe(201)
    expect((await admin(s, "get", "/admin/pgs/settings/terminals")).data.terminals.find((t: any) => t.id === created.data.terminal.id).method_names).toEqual(names)

    const methodsOf = async (currency_code: string) => {
      const cart = await s.createCart({ currency_code })
      const res = await s.api.get(`/store/pgs/payment-methods?cart_id=${cart.id}`, { headers: s.storeHeaders })
      return Object.fromEntries(res.data.payment_methods.map((m: any) => [m.identifier, m.names]))
    }
    const usd = await methodsOf("usd")
    expect(usd).toMatchObject({ pgs: { "sv-SE": "Bankkort" }, "pgs-wallets": { "en-US": "PayFriend and others", "sv-SE": "Swish och andra" } })
    expect(usd["pgs-open-banking"]).toBeUndefined() // unnamed: the widget's own name
    // Another currency's terminal does not lend its names.
    expect((await methodsOf("pln"))["pgs-wallets"]).toBeUndefined()

    // Cleared: the names are gone from the list at once.
    await admin(s, "post", `/admin/pgs/settings/terminals/${created.data.terminal.id}`, { method_names: null })
    expect((await methodsOf("usd"))["pgs-wallets"]).toBeUndefined()
    await admin(s, "delete", `/admin/pgs/settings/terminals/${created.data.terminal.id}`)
  })
})
