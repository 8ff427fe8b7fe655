/**
 * Card data found by its shape in what a storefront sends, wherever it sits and however it is written.
 */
import { cardShapedFields, passesLuhn } from "../card-shaped"

const SAQ_A = { rawCards: false, networkTokens: false }
const fields = (body: unknown, rules = SAQ_A) => cardShapedFields(body, rules).map((p) => p.field)

describe("card-shaped fields in storefront data", () => {
  it("finds card numbers passing the Luhn check under any name, written with spaces, dashes or as a JSON number", () => {
    expect(passesLuhn("4111111111111111")).toBe(true)
    expect(passesLuhn("4111111111111112")).toBe(false)
    expect(fields({ data: { payment_method: { number: "4111111111111111", cvv: "987" } } })).toEqual(["data.payment_method.number", "data.payment_method.cvv"])
    expect(fields({ data: { note: "4111 1111 1111 1111", list: ["5555-5555-5555-4444"], n: 4111111111111111 } })).toEqual(["data.note", "data.list.0", "data.n"])
    expect(fields({ data: { deep: { deeper: [{ x: "378282246310005" }] } } })).toEqual(["data.deep.deeper.0.x"])
  })

  it("finds a card number written with runs of spaces, dashes or dots, or padded with them, by its 12 to 19 digits", () => {
    const padded = `${"-".repeat(30)}4111111111111111${" ".repeat(30)}`
    expect(fields({ a: "4111  1111  1111  1111", b: "4111--1111--1111--1111", c: "4111.1111.1111.1111", d: padded, e: " 4111\t1111 - 1111 . 1111 " })).toEqual(["a", "b", "c", "d", "e"])
    expect(fields({ card_number: "1234 . 5678 . 9012 . 3456" })).toEqual(["card_number"])
    // Too few or too many digits is no card number, however it is written; a string too long to read is not read.
    expect(fields({ card_number: "1234  5678  901", other: "4111 1111 1111 1111 1111 1111", long: `${" ".repeat(200)}4111111111111111` })).toEqual([])
  })

  it("finds 12 to 19 digits under a card-number name without a Luhn check, and a security code under any of its names", () => {
    expect(fields({ card_number: "4111111111111112", PAN: "123456789012", CardNumber: "1234 5678 9012 3456" })).toEqual(["card_number", "PAN", "CardNumber"])
    expect(fields({ CVC: "123", security_code: 4567, "card-cvv": "12", cvv2: "999" })).toEqual(["CVC", "security_code", "card-cvv", "cvv2"])
  })

  it("leaves ordinary session data alone", () => {
    const body = {
      provider_id: "pp_pgs_pgs",
      data: {
        session_id: "payses_01JABCDEF",
        browser_info: { color_depth: 24, screen_height: 800, screen_width: 1200, time_zone_offset: -120, language: "en-US" },
        save_card: true,
        cvv: "",
        reference: "4111111111111112",
        amount: 123456789012,
        saved_card_id: "pgscard_01",
        payment_method: { type: "saved_card", saved_card_id: "pm_123" },
      },
    }
    expect(fields(body)).toEqual([])
  })

  it("refuses a network token from the storefront unless the store lets it through, and its number anywhere else", () => {
    const token = { type: "network-token", token_number: "4000000000001000", expiration_month: 12, expiration_year: 2030 }
    expect(cardShapedFields({ data: { payment_method: token } }, SAQ_A)).toEqual([{ field: "data.payment_method.type", message: expect.stringMatching(/^is "network-token": a network token is not taken from a storefront.*networkTokensFromStorefront/) }])
    expect(fields({ data: { payment_method: { ...token, type: "Network-Token" } } })).toEqual(["data.payment_method.type"])
    // SAQ D lets card fields through, not network tokens: they are a separate door.
    expect(fields({ data: { payment_method: token } }, { rawCards: true, networkTokens: false })).toEqual(["data.payment_method.type"])
    const open = { rawCards: false, networkTokens: true }
    expect(fields({ data: { payment_method: token } }, open)).toEqual([])
    expect(fields({ data: { payment_method: { ...token, token_number: "123456789012" } } }, open)).toEqual([])
    expect(fields({ data: { token_number: "123456789012" } }, open)).toEqual(["data.token_number"])
    expect(fields({ data: { payment_method: { ...token, cvv: "123" } } }, open)).toEqual(["data.payment_method.cvv"])
  })

  it("lets card fields through for a store in PCI DSS scope SAQ D", () => {
    expect(fields({ data: { payment_method: { type: "card", number: "4111111111111111", cvv: "987" } } }, { rawCards: true, networkTokens: false })).toEqual([])
  })
})
