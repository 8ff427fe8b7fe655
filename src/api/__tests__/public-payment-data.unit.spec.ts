import { withPublicPaymentData } from "../store/public-payment-data"

const pgsData = {
  integration: "embedded_fields",
  gateway_status: "APPROVED",
  gateway_session_id: "ses_1",
  client_key: "ck_1",
  transaction_id: "trx_1",
  captures: [{ key: "c1", transaction_id: "trx_2", amount_minor: 100, kind: "applied" }],
  internal: JSON.stringify({ reference: "payses_1", hosted_page_id: "hpp_1", gateway_customer_id: "cus_1", customer_ip: "203.0.113.9" }),
}

describe("what a store answer shows of a payment's data", () => {
  it("leaves out the gateway's transaction, page and customer ids and the IP, and keeps what the widget reads", () => {
    const body = { cart: { id: "cart_1", payment_collection: { payment_sessions: [{ id: "payses_1", provider_id: "pp_pgs_pgs", data: pgsData }] } } }
    const shown = withPublicPaymentData(body) as typeof body
    const data = shown.cart.payment_collection.payment_sessions[0].data as Record<string, unknown>
    expect(data).toEqual({ integration: "embedded_fields", gateway_status: "APPROVED", gateway_session_id: "ses_1", client_key: "ck_1", internal: JSON.stringify({ reference: "payses_1" }) })
    // The object Medusa built is not changed: only the answer is.
    expect(body.cart.payment_collection.payment_sessions[0].data.transaction_id).toBe("trx_1")
  })

  it("reads the plugin's own session answers (no provider id) by their data's form, and leaves other providers' data alone", () => {
    expect(withPublicPaymentData({ payment_session: { id: "payses_1", data: pgsData } })).toEqual({ payment_session: { id: "payses_1", data: expect.not.objectContaining({ transaction_id: expect.anything() }) } })
    const other = { payments: [{ provider_id: "pp_stripe_stripe", data: { id: "pi_1", transaction_id: "x" } }] }
    expect(withPublicPaymentData(other)).toBe(other)
  })

  it("leaves out the ids, the IP and the browser details an earlier version's session kept as public keys (an older order's payment)", () => {
    const older = {
      integration: "hosted_page",
      gateway_status: "CAPTURED",
      transaction_id: "trx_9",
      reference: "payses_9",
      amount_minor: 1000,
      currency_code: "eur",
      payment_method: "card",
      hosted_page_id: "hpp_9",
      gateway_customer_id: "cus_9",
      customer_ip: "203.0.113.7",
      browser_info: { user_agent: "Mozilla/5.0", accept_header: "text/html", language: "en" },
    }
    const body = { order: { id: "order_1", payment_collections: [{ payments: [{ id: "pay_1", provider_id: "pp_pgs_pgs", data: older }] }] } }
    const shown = withPublicPaymentData(body) as typeof body
    // Kept as keys without values: the shape this version writes (null), never what an earlier version left there.
    const cleared = { reference: null, amount_minor: null, currency_code: null, payment_method: null, hosted_page_id: null, gateway_customer_id: null, customer_ip: null, browser_info: null }
    expect(shown.order.payment_collections[0].payments[0].data).toEqual({ integration: "hosted_page", gateway_status: "CAPTURED", ...cleared })
  })

  it("shows of `internal` only what this release knows to be the shopper's: a newer release's own field stays on the server", () => {
    const besideNext = { ...pgsData, internal: JSON.stringify({ reference: "payses_1", data_version: 2, wallet_token_ref: "wtr_secret" }) }
    const shown = withPublicPaymentData({ payment_session: { id: "payses_1", provider_id: "pp_pgs_pgs", data: besideNext } }) as any
    expect(JSON.parse(shown.payment_session.data.internal)).toEqual({ reference: "payses_1", data_version: 2 })
  })
})
