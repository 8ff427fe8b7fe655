/**
 * Conformance: "Unmapped or undecryptable card: metadata simulate_redirect returns a redirect to the simulator page;
 * simulate_form_submit returns a form_submit (default Y, N declines); with neither, 3-D Secure is skipped and the
 * card simulator decides from metadata response_code."
 */
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { authorizeCard, formById, record, RETURN_URL, submit, undecryptableCard } from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const UNMAPPED = "4111111111111111"
const cards: Array<[string, () => unknown]> = [
  ["undecryptable card", () => undecryptableCard()],
  ["unmapped card", () => h.encryptedCard({ number: UNMAPPED })],
]

describe.each(cards)("%s", (_name, paymentMethod) => {
  it("with neither key: 3-D Secure is skipped and the transaction is approved (response_code defaults to TRX_STATUS_APPROVED)", async () => {
    const res = await authorizeCard(h, { payment_method: paymentMethod() })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
    expect(res.body.result).toMatchObject({ status: "APPROVED", processing_code: "0000", response_message: "TRX_STATUS_APPROVED" })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("SKIPPED")
  })

  it.each([
    ["TRX_STATUS_APPROVED", "APPROVED", "0000"],
    ["TRX_STATUS_DECLINED", "DECLINED", "1000"],
    ["TRX_STATUS_FAILED", "DECLINED", "1001"],
  ])("response_code %s gives status %s with processing code %s", async (code, status, processing) => {
    const res = await authorizeCard(h, { payment_method: paymentMethod(), metadata: { response_code: code } })
    expect(res.body.result).toMatchObject({ status, processing_code: processing, response_message: code })
  })

  it("simulate_redirect returns a redirect to the simulator page, whose approval goes on to the card simulator", async () => {
    const res = await authorizeCard(h, { payment_method: paymentMethod(), metadata: { simulate_redirect: "true", response_code: "TRX_STATUS_DECLINED" } })
    expect(res.body.result).toBeNull()
    const { url, transaction_id } = res.body.redirect
    expect(url).toBe(`${h.url}/simulator/simplified/three-ds/${transaction_id}`)
    const page = await h.raw("GET", url)
    const done = await submit(h, formById(page.text, "approve"))
    expect(done.headers.location).toBe(RETURN_URL)
    expect(await record(h, transaction_id)).toMatchObject({ status: "DECLINED", processing_code: "1000", authentication_status: "AUTHENTICATED" })
  })

  it("simulate_form_submit without trans_status posts Y (default) and approves", async () => {
    const res = await authorizeCard(h, { payment_method: paymentMethod(), metadata: { simulate_form_submit: "{}" } })
    const fs = res.body.form_submit
    expect(fs.url).toBe(`${h.url}/simulator/simplified/three-ds/${fs.transaction_id}/authentication-completed`)
    expect(fs.data).toEqual({ trans_status: "Y" })
    await h.raw("POST", fs.url, { form: fs.data })
    expect((await record(h, fs.transaction_id)).status).toBe("APPROVED")
  })

  it('simulate_form_submit {"trans_status":"N"} posts N and declines, also when the browser posts Y instead', async () => {
    for (const posted of ["N", "Y"]) {
      const res = await authorizeCard(h, { payment_method: paymentMethod(), metadata: { simulate_form_submit: JSON.stringify({ trans_status: "N" }) } })
      const fs = res.body.form_submit
      expect(fs.data).toEqual({ trans_status: "N" })
      await h.raw("POST", fs.url, { form: { trans_status: posted } })
      expect(await record(h, fs.transaction_id)).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    }
  })
})

describe("simulator metadata values", () => {
  it("an unknown response_code is a 422 on metadata.response_code", async () => {
    const res = await authorizeCard(h, { payment_method: undecryptableCard(), metadata: { response_code: "TRX_STATUS_MAYBE" } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("metadata.response_code")
  })

  it("an unknown simulated_flow is a 422 on metadata.simulated_flow", async () => {
    const res = await authorizeCard(h, { metadata: { simulated_flow: "VERSIONING_SOMETHING" } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("metadata.simulated_flow")
  })

  it("a test card ignores response_code: its scenario decides", async () => {
    const res = await authorizeCard(h, { metadata: { response_code: "TRX_STATUS_DECLINED" } })
    expect(res.body.result).toMatchObject({ status: "APPROVED" })
  })
})
