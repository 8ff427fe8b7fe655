/** Conformance: the simplified authentication simulator's five test-card scenarios, end to end over HTTP. */
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { authorizeCard, ERROR_URL, formById, record, RETURN_URL, submit } from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const card = (scenario: string, brand: "VISA" | "MASTERCARD" = "VISA") => h.encryptedCard({ number: h.testCard(scenario, brand) })

describe("simplified simulator: frictionless approved", () => {
  it.each([
    ["PURCHASE", "VISA"],
    ["AUTHORIZE", "VISA"],
    ["PURCHASE", "MASTERCARD"],
    ["AUTHORIZE", "MASTERCARD"],
  ] as const)("%s with the %s card returns result approved, trans_status Y", async (type, brand) => {
    const res = await authorizeCard(h, { transaction_type: type, payment_method: card("frictionless_approved", brand) })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
    expect(res.body.result).toMatchObject({
      status: "APPROVED",
      approved: true,
      pending: false,
      transaction_type: type,
      processing_code: "0000",
      response_message: "TRX_STATUS_APPROVED",
      amount: 1999,
      currency: "EUR",
      payment_method: { type: "card", brand, token: null },
    })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("AUTHENTICATED")
  })
})

describe("simplified simulator: frictionless then processing decline", () => {
  it.each(["VISA", "MASTERCARD"] as const)(
    "%s: authenticated (Y) but authorization declined with TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS",
    async (brand) => {
      const res = await authorizeCard(h, { payment_method: card("frictionless_insufficient_funds", brand) })
      expect(res.status).toBe(200)
      expect(res.body.result).toMatchObject({ status: "DECLINED", approved: false, processing_code: "1004" })
      expect(res.body.result.response_message).toContain("TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS")
      expect((await record(h, res.body.result.id)).authentication_status).toBe("AUTHENTICATED")
    },
  )
})

describe("simplified simulator: redirect interactive", () => {
  it("returns redirect.url = {base_url}/simulator/simplified/three-ds/{transaction_id} and leaves the transaction CREATED", async () => {
    const res = await authorizeCard(h, { payment_method: card("redirect_interactive") })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ result: null, action: null, form_submit: null })
    const { transaction_id, session_id, url } = res.body.redirect
    expect(url).toBe(`${h.url}/simulator/simplified/three-ds/${transaction_id}`)
    expect(typeof session_id).toBe("string")
    expect((await record(h, transaction_id)).status).toBe("CREATED")
  })

  it("the page offers Approve (Y) and Decline (N); Approve finalizes approved and sends the browser to return_url", async () => {
    const res = await authorizeCard(h, { payment_method: card("redirect_interactive", "MASTERCARD") })
    const pageRes = await h.raw("GET", res.body.redirect.url)
    expect(pageRes.status).toBe(200)
    expect(pageRes.text).toContain("Approve (Y)")
    expect(pageRes.text).toContain("Decline (N)")
    expect(formById(pageRes.text, "decline").fields).toEqual({ trans_status: "N" })
    const approve = formById(pageRes.text, "approve")
    expect(approve.fields).toEqual({ trans_status: "Y" })
    const done = await submit(h, approve)
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(RETURN_URL)
    const tx = await record(h, res.body.redirect.transaction_id)
    expect(tx).toMatchObject({ status: "APPROVED", processing_code: "0000", authentication_status: "AUTHENTICATED" })
  })

  it.each([
    ["EUR", 1999, "19.99 EUR"],
    ["JPY", 1999, "1999 JPY"],
    ["BHD", 1999, "1.999 BHD"],
    // ISO 4217 says 2 where Intl displays none.
    ["HUF", 1999, "19.99 HUF"],
  ])("the page shows a %s amount of %d minor units in its currency's own decimals: %s", async (currency, amount, shown) => {
    const res = await authorizeCard(h, { amount, currency, payment_method: card("redirect_interactive") })
    expect(res.status).toBe(200)
    expect((await h.raw("GET", res.body.redirect.url)).text).toContain(`<dt>Amount</dt><dd>${shown}</dd>`)
  })

  it("Decline (N) finalizes declined and sends the browser to error_url when one was given", async () => {
    const res = await authorizeCard(h, { payment_method: card("redirect_interactive"), error_url: ERROR_URL })
    const pageRes = await h.raw("GET", res.body.redirect.url)
    const done = await submit(h, formById(pageRes.text, "decline"))
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(ERROR_URL)
    expect(await record(h, res.body.redirect.transaction_id)).toMatchObject({ status: "DECLINED", processing_code: "1000", authentication_status: "NOT_AUTHENTICATED" })
  })

  it("Decline (N) without error_url sends the browser to return_url", async () => {
    const res = await authorizeCard(h, { payment_method: card("redirect_interactive") })
    const pageRes = await h.raw("GET", res.body.redirect.url)
    const done = await submit(h, formById(pageRes.text, "decline"))
    expect(done.headers.location).toBe(RETURN_URL)
  })

  it("a post to the completion URL when the simulator page was never opened is refused (409) and authorizes nothing", async () => {
    const res = await authorizeCard(h, { payment_method: card("redirect_interactive") })
    const { transaction_id, url } = res.body.redirect
    const skipped = await h.raw("POST", `${url}/authentication-completed`, { form: { trans_status: "Y" } })
    expect(skipped.status).toBe(409)
    expect(skipped.text).toContain("never opened")
    expect((await record(h, transaction_id)).status).toBe("CREATED")
    // The page, once shown, still decides.
    const pageRes = await h.raw("GET", url)
    await submit(h, formById(pageRes.text, "decline"))
    expect((await record(h, transaction_id)).status).toBe("DECLINED")
  })

  it("authorize with the same reference answers the same redirect while the customer has not decided, then the result", async () => {
    const first = await authorizeCard(h, { payment_method: card("redirect_interactive") })
    const reference = (await record(h, first.body.redirect.transaction_id)).reference
    const again = await authorizeCard(h, { reference, payment_method: card("redirect_interactive") })
    expect(again.body.redirect).toEqual(first.body.redirect)
    const pageRes = await h.raw("GET", first.body.redirect.url)
    await submit(h, formById(pageRes.text, "approve"))
    const after = await authorizeCard(h, { reference, payment_method: card("redirect_interactive") })
    expect(after.body.redirect).toBeNull()
    expect(after.body.result).toMatchObject({ id: first.body.redirect.transaction_id, status: "APPROVED" })
  })
})

describe("simplified simulator: form submit", () => {
  it("Form submit authenticated: form_submit posts trans_status = Y to .../authentication-completed; approved", async () => {
    const res = await authorizeCard(h, { payment_method: card("form_submit_authenticated") })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ result: null, action: null, redirect: null })
    const fs = res.body.form_submit
    expect(fs.url).toBe(`${h.url}/simulator/simplified/three-ds/${fs.transaction_id}/authentication-completed`)
    expect(fs.data).toEqual({ trans_status: "Y" })
    expect(typeof fs.session_id).toBe("string")
    const done = await h.raw("POST", fs.url, { form: fs.data })
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(RETURN_URL)
    expect(await record(h, fs.transaction_id)).toMatchObject({ status: "APPROVED", processing_code: "0000" })
  })

  it("Form submit declined: same with trans_status = N; declined", async () => {
    const res = await authorizeCard(h, { payment_method: card("form_submit_declined", "MASTERCARD"), error_url: ERROR_URL })
    const fs = res.body.form_submit
    expect(fs.url).toBe(`${h.url}/simulator/simplified/three-ds/${fs.transaction_id}/authentication-completed`)
    expect(fs.data).toEqual({ trans_status: "N" })
    const done = await h.raw("POST", fs.url, { form: fs.data })
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(ERROR_URL)
    expect(await record(h, fs.transaction_id)).toMatchObject({ status: "DECLINED", processing_code: "1000" })
  })

  it("a second post to the completion URL changes nothing: a final status never changes", async () => {
    const res = await authorizeCard(h, { payment_method: card("form_submit_authenticated") })
    const fs = res.body.form_submit
    await h.raw("POST", fs.url, { form: fs.data })
    const again = await h.raw("POST", fs.url, { form: { trans_status: "N" } })
    expect(again.status).toBe(303)
    expect(again.headers.location).toBe(RETURN_URL)
    expect((await record(h, fs.transaction_id)).status).toBe("APPROVED")
  })

  it("a form_submit_declined card posted back with trans_status Y still declines: the card's scenario decided", async () => {
    const res = await authorizeCard(h, { payment_method: card("form_submit_declined") })
    const fs = res.body.form_submit
    const done = await h.raw("POST", fs.url, { form: { trans_status: "Y" } })
    expect(done.status).toBe(303)
    expect(await record(h, fs.transaction_id)).toMatchObject({ status: "DECLINED", authentication_status: "NOT_AUTHENTICATED" })
  })

  it("the completion URL of an unknown transaction answers 404", async () => {
    const res = await h.raw("POST", `${h.url}/simulator/simplified/three-ds/trx_unknown/authentication-completed`, { form: { trans_status: "Y" } })
    expect(res.status).toBe(404)
  })
})
