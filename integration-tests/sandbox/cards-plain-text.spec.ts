/**
 * Conformance: decryption (RSA-OAEP SHA-256, MGF1 SHA-256) and the plain-text formats before encryption:
 * "card number digits only without spaces; CVV digits only; expiration month 1 to 12 without leading zero;
 * expiration year 2-digit or 4-digit, current or future year". A decrypted field that breaks them is a 422
 * naming the encrypted field.
 */
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { authorizeCard } from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const thisYear = new Date().getFullYear()
const good = () => ({ number: h.testCard("frictionless_approved") })

describe("plain-text rules after decryption", () => {
  it.each([
    ["card number with spaces", "encrypted_card_number", { number: "4000 0000 0000 1000" }],
    ["card number with letters", "encrypted_card_number", { number: "4000abcd00001000" }],
    ["CVV with letters", "encrypted_cvv", { cvv: "12a" }],
    ["month with a leading zero", "encrypted_expiration_month", { month: "01" }],
    ["month 13", "encrypted_expiration_month", { month: "13" }],
    ["month 0", "encrypted_expiration_month", { month: "0" }],
    ["3-digit year", "encrypted_expiration_year", { year: "203" }],
    ["past 4-digit year", "encrypted_expiration_year", { year: String(thisYear - 1) }],
    ["past 2-digit year", "encrypted_expiration_year", { year: String(thisYear - 1).slice(2) }],
  ])("%s is a 422 on payment_method.data.%s", async (_name, field, override) => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ ...good(), ...override }) })
    expect(res.status).toBe(422)
    expect(res.body).toMatchObject({ status: 422, method: "POST" })
    expect(res.body.errors).toHaveLength(1)
    expect(res.body.errors[0].property).toBe(`payment_method.data.${field}`)
    expect(res.body.errors[0].params[0]).toBe(field)
  })

  it.each([
    ["month without leading zero", { month: "1" }],
    ["current year, 4 digits", { year: String(thisYear) }],
    ["current year, 2 digits", { year: String(thisYear).slice(2) }],
    ["4-digit CVV", { cvv: "1234" }],
  ])("%s is accepted", async (_name, override) => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ ...good(), ...override }) })
    expect(res.status).toBe(200)
    expect(res.body.result.status).toBe("APPROVED")
  })

  it("a field encrypted with another key cannot be decrypted: the card is treated as undecryptable (fallback)", async () => {
    const { generateKeyPairSync, publicEncrypt, constants } = await import("node:crypto")
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey
    const enc = (s: string) => publicEncrypt({ key: other, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(s)).toString("base64")
    const card = h.encryptedCard(good())
    const res = await authorizeCard(h, {
      payment_method: { type: "card", data: { ...card.data, encrypted_card_number: enc(h.testCard("frictionless_insufficient_funds")) } },
    })
    expect(res.status).toBe(200)
    // Not the insufficient-funds test card any more: an undecryptable card is approved by the default response_code.
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { brand: null, masked: null } })
  })

  it("PKCS#1 v1.5 padding (not OAEP) is not decryptable either", async () => {
    const { publicEncrypt, constants } = await import("node:crypto")
    const enc = publicEncrypt({ key: h.config.merchant_public_key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(h.testCard("frictionless_insufficient_funds"))).toString("base64")
    const card = h.encryptedCard(good())
    const res = await authorizeCard(h, { payment_method: { type: "card", data: { ...card.data, encrypted_card_number: enc } } })
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { masked: null } })
  })
})
