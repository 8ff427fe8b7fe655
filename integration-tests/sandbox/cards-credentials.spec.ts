/**
 * Conformance: "3-D Secure applicability: card and saved_card always; wallet-one only for PAN_ONLY credentials;
 * network-token skipped when a valid cryptogram and ECI are provided; OCT and PAYOUT never."
 */
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { authorizeCard, base64, record, walletOneToken } from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const year = String(new Date().getFullYear() + 2)
const networkToken = (number: string, extra: Record<string, unknown> = {}) => ({
  type: "network-token",
  data: {
    encrypted_token_number: h.encrypt(number),
    encrypted_expiration_month: h.encrypt("11"),
    encrypted_expiration_year: h.encrypt(year),
    ...extra,
  },
})
const walletOne = (details: Parameters<typeof walletOneToken>[0]) => ({ type: "wallet-one", data: { wallet_one_token: walletOneToken(details) } })

describe("network-token", () => {
  it("with a cryptogram and an ECI, 3-D Secure is skipped (even for a challenge test card)", async () => {
    const res = await authorizeCard(h, {
      payment_method: networkToken(h.testCard("redirect_interactive"), { encrypted_cryptogram: h.encrypt("AgAAAAAABk4DWZ4C28yUQAAAAAA="), eci: "05" }),
    })
    expect(res.body.redirect).toBeNull()
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { type: "network-token", brand: "VISA", masked: "400000******2008" } })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("SKIPPED")
  })

  it("PAN_ONLY (no cryptogram, no ECI) runs 3-D Secure like a card", async () => {
    const res = await authorizeCard(h, { payment_method: networkToken(h.testCard("redirect_interactive")) })
    expect(res.body.result).toBeNull()
    expect(res.body.redirect.url).toBe(`${h.url}/simulator/simplified/three-ds/${res.body.redirect.transaction_id}`)
  })

  it("a cryptogram without ECI is a 422 on payment_method.data.eci (ECI is required for CRYPTOGRAM_3DS)", async () => {
    const res = await authorizeCard(h, { payment_method: networkToken(h.testCard("frictionless_approved"), { encrypted_cryptogram: h.encrypt("AgAAAAAABk4DWZ4C28yUQAAAAAA=") }) })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.eci")
  })

  it("an ECI without cryptogram is a 422 on payment_method.data.eci (omitted for PAN_ONLY)", async () => {
    const res = await authorizeCard(h, { payment_method: networkToken(h.testCard("frictionless_approved"), { eci: "05" }) })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.eci")
  })

  it("an ECI outside 00, 01, 02, 05, 06, 07 is a 422 on payment_method.data.eci", async () => {
    const res = await authorizeCard(h, {
      payment_method: networkToken(h.testCard("frictionless_approved"), { encrypted_cryptogram: h.encrypt("AgAAAAAABk4DWZ4C28yUQAAAAAA="), eci: "03" }),
    })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.eci")
  })

  it("the token number follows the card number rules (422 on encrypted_token_number)", async () => {
    const res = await authorizeCard(h, { payment_method: networkToken("4000-0000-0000-1000") })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.encrypted_token_number")
  })
})

describe("wallet-one", () => {
  it("CRYPTOGRAM_3DS is already authenticated: 3-D Secure is skipped", async () => {
    const res = await authorizeCard(h, {
      payment_method: walletOne({ pan: h.testCard("redirect_interactive", "MASTERCARD"), cardNetwork: "MASTERCARD", authMethod: "CRYPTOGRAM_3DS", cryptogram: "AgAAAAAABk4DWZ4C28yUQAAAAAA=" }),
    })
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { type: "wallet-one", brand: "MASTERCARD" } })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("SKIPPED")
  })

  it("PAN_ONLY needs 3-D Secure: the card's simulator scenario runs", async () => {
    const res = await authorizeCard(h, { payment_method: walletOne({ pan: h.testCard("form_submit_authenticated"), authMethod: "PAN_ONLY" }) })
    expect(res.body.form_submit.data).toEqual({ trans_status: "Y" })
  })

  it("PAN_ONLY with the insufficient-funds card is declined with 1004", async () => {
    const res = await authorizeCard(h, { payment_method: walletOne({ pan: h.testCard("frictionless_insufficient_funds"), authMethod: "PAN_ONLY" }) })
    expect(res.body.result).toMatchObject({ status: "DECLINED", processing_code: "1004" })
  })

  it("a card network other than VISA or MASTERCARD is a 422 on payment_method.data.wallet_one_token", async () => {
    const res = await authorizeCard(h, { payment_method: walletOne({ pan: "340000000000009", cardNetwork: "AMEX", authMethod: "PAN_ONLY" }) })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.wallet_one_token")
  })

  it("a token whose signature does not match signedMessage is a 422", async () => {
    const token = JSON.parse(Buffer.from(walletOneToken({ pan: h.testCard("frictionless_approved"), authMethod: "PAN_ONLY" }), "base64").toString())
    token.signature = base64("forged")
    const res = await authorizeCard(h, { payment_method: { type: "wallet-one", data: { wallet_one_token: base64(token) } } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].message).toContain("signature")
  })

  it("a token that is not Base64 of the wallet JSON is a 422", async () => {
    const res = await authorizeCard(h, { payment_method: { type: "wallet-one", data: { wallet_one_token: base64("not json") } } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.wallet_one_token")
  })

  it("CRYPTOGRAM_3DS without a cryptogram is a 422", async () => {
    const res = await authorizeCard(h, { payment_method: walletOne({ pan: h.testCard("frictionless_approved"), authMethod: "CRYPTOGRAM_3DS" }) })
    expect(res.status).toBe(422)
  })

  it("an expired card in the token is a 422", async () => {
    const res = await authorizeCard(h, { payment_method: walletOne({ pan: h.testCard("frictionless_approved"), authMethod: "PAN_ONLY", expirationYear: 2001 }) })
    expect(res.status).toBe(422)
  })
})

describe("OCT and PAYOUT never run 3-D Secure", () => {
  it.each(["OCT", "PAYOUT"])("%s with a challenge test card answers the result at once", async (type) => {
    const res = await authorizeCard(h, { transaction_type: type, payment_method: h.encryptedCard({ number: h.testCard("redirect_interactive") }) })
    expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
    expect(res.body.result).toMatchObject({ status: "APPROVED", transaction_type: type })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("SKIPPED")
  })

  it("OCT ignores simulated_flow", async () => {
    const res = await authorizeCard(h, { transaction_type: "OCT", metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    expect(res.body.action).toBeNull()
    expect(res.body.result.status).toBe("APPROVED")
  })

  it("PAYOUT with the insufficient-funds card is declined with 1004", async () => {
    const res = await authorizeCard(h, { transaction_type: "PAYOUT", payment_method: h.encryptedCard({ number: h.testCard("frictionless_insufficient_funds") }) })
    expect(res.body.result).toMatchObject({ status: "DECLINED", processing_code: "1004" })
  })
})
