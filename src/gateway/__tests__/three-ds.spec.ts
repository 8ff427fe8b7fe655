import { generateKeyPairSync, privateDecrypt, constants } from "node:crypto"
import { authenticationCompletedFromCres, buildCReq, buildThreeDSMethodData, challengeForm, decodeActionToken, fingerprintForm, fingerprintResult, parseCres, ThreeDSDecodeError } from "../three-ds"
import { CardEncryptor } from "../encryption"
import { GatewayValidationError } from "../errors"
import { isPossibleE164 } from "../phone"

const tokenFields = {
  three_ds_method_url: "https://acs.example/method",
  three_ds_server_trans_id: "3ds-123",
  three_ds_method_notification_url: "https://pgs.example/notify",
  acs_url: "https://acs.example/challenge",
  acs_trans_id: "acs-9",
  message_version: "2.2.0",
  challenge_window_size: "05",
}
const encoded = Buffer.from(JSON.stringify(tokenFields)).toString("base64")
const decode = (b64: string) => JSON.parse(Buffer.from(b64, "base64").toString())

describe("3-D Secure helpers", () => {
  it("decodes the action token and builds threeDSMethodData and the CReq from it", () => {
    const token = decodeActionToken(encoded)
    expect(token.acs_trans_id).toBe("acs-9")
    const method = fingerprintForm(token)!
    expect(method.url).toBe("https://acs.example/method")
    expect(decode(method.fields.threeDSMethodData)).toEqual({ threeDSServerTransID: "3ds-123", threeDSMethodNotificationURL: "https://pgs.example/notify" })
    const creq = challengeForm(token)
    expect(creq.url).toBe("https://acs.example/challenge")
    expect([buildThreeDSMethodData(token), buildCReq(token)]).toEqual([method.fields.threeDSMethodData, creq.fields.creq])
    expect(decode(creq.fields.creq)).toEqual({ threeDSServerTransID: "3ds-123", acsTransID: "acs-9", messageVersion: "2.2.0", messageType: "CReq", challengeWindowSize: "05" })
  })

  it("skips the fingerprint form when the token has no method URL", () => {
    const { three_ds_method_url: _, ...rest } = tokenFields
    expect(fingerprintForm(decodeActionToken(Buffer.from(JSON.stringify(rest)).toString("base64")))).toBeNull()
    expect([fingerprintResult(true), fingerprintResult(false)]).toEqual(["WQ==", "Tg=="])
  })

  it("parses a Base64URL cres into the authentication-completed body", () => {
    const cres = Buffer.from(JSON.stringify({ threeDSServerTransID: "3ds-123", transStatus: "Y" })).toString("base64url")
    expect(parseCres(cres).transStatus).toBe("Y")
    expect(authenticationCompletedFromCres(cres, "PD")).toEqual({ payment_data: "PD", session_id: "3ds-123", trans_status: "Y" })
  })

  it("refuses a token or cres that is not Base64 JSON of the right shape", () => {
    expect(() => decodeActionToken("%%%")).toThrow(ThreeDSDecodeError)
    expect(() => parseCres(Buffer.from(JSON.stringify({ transStatus: "Q" })).toString("base64url"))).toThrow(ThreeDSDecodeError)
  })
})

describe("card encryption", () => {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const encryptor = new CardEncryptor(publicKey.export({ type: "spki", format: "pem" }).toString(), () => new Date("2026-06-01T00:00:00Z"))
  const decrypt = (b64: string) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(b64, "base64")).toString()

  it("encrypts each field separately with RSA-OAEP SHA-256, Base64", () => {
    const pm = encryptor.card({ number: "4000000000001000", cvv: "123", expirationMonth: 7, expirationYear: "2027" })
    expect(pm.type).toBe("card")
    expect(decrypt(pm.data.encrypted_card_number)).toBe("4000000000001000")
    expect(decrypt(pm.data.encrypted_cvv)).toBe("123")
    expect(decrypt(pm.data.encrypted_expiration_month)).toBe("7")
    expect(decrypt(pm.data.encrypted_expiration_year)).toBe("2027")
  })

  it.each([
    [{ number: "4000 0000 0000 1000" }, "payment_method.data.encrypted_card_number"],
    [{ cvv: "12a" }, "payment_method.data.encrypted_cvv"],
    [{ expirationMonth: "07" }, "payment_method.data.encrypted_expiration_month"],
    [{ expirationMonth: 13 }, "payment_method.data.encrypted_expiration_month"],
    [{ expirationYear: "2025" }, "payment_method.data.encrypted_expiration_year"],
    [{ expirationYear: "25" }, "payment_method.data.encrypted_expiration_year"],
    [{ expirationYear: "202" }, "payment_method.data.encrypted_expiration_year"],
  ])("refuses %p before encrypting, naming %s, without echoing the value", (override, property) => {
    const card = { number: "4000000000001000", cvv: "123", expirationMonth: 7, expirationYear: "26", ...override }
    let error: unknown
    try {
      encryptor.card(card)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(GatewayValidationError)
    const v = error as GatewayValidationError
    expect(v.local).toBe(true)
    expect(v.fields.map((f) => f.property)).toEqual([property])
    expect(JSON.stringify(v) + v.message).not.toContain("4000 0000")
  })

  it("encrypts network tokens with plain eci and source, and a saved card's optional CVV", () => {
    const nt = encryptor.networkToken({ tokenNumber: "4000000000001000", expirationMonth: 1, expirationYear: 30, cryptogram: "AAABBB", eci: "05", source: "wallet-one" })
    expect(decrypt(nt.data.encrypted_cryptogram!)).toBe("AAABBB")
    expect(nt.data.eci).toBe("05")
    expect(encryptor.savedCard("pm_1").data).toEqual({ payment_method_id: "pm_1" })
    expect(decrypt(encryptor.savedCard("pm_1", "999").data.encrypted_cvv!)).toBe("999")
  })
})

describe("phone numbers", () => {
  it.each([
    ["+48601234567", true],
    ["+14155552671", true],
    ["+4860123", false],
    ["+1234", false],
    ["0048601234567", false],
  ])("%s is possible: %s", (phone, ok) => {
    expect(isPossibleE164(phone)).toBe(ok)
  })
})
