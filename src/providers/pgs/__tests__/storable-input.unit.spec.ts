import { MedusaError } from "@medusajs/framework/utils"
import { refuseUnstorable } from "../storable-input"

const refusal = (data: unknown) => {
  try {
    refuseUnstorable(data)
  } catch (error) {
    return { type: (error as MedusaError).type, message: (error as Error).message }
  }
  return null
}

describe("storefront data a provider method is handed", () => {
  it("is refused as invalid data naming each field that holds U+0000 or a lone surrogate, at any depth", () => {
    expect(refusal({ payment_method: { type: "wallet-one", token: "tok\u0000en" }, notes: ["ok", "x\udc00"] })).toEqual({
      type: MedusaError.Types.INVALID_DATA,
      message:
        "Invalid PGS payment data: data.payment_method.token must not contain the invisible character NUL (U+0000), which pasted text sometimes carries; " +
        "data.notes.1 must not contain a broken character (an unpaired UTF-16 surrogate)",
    })
  })

  it("names a field whose name cannot be stored", () => {
    expect(refusal({ ["session\u0000id"]: "x" })?.message).toBe("Invalid PGS payment data: data.session\u0000id (a field name) must not contain the invisible character NUL (U+0000), which pasted text sometimes carries")
  })

  it("is refused when nested 5,000 deep, without overflowing the stack", () => {
    let deep: unknown = "leaf"
    for (let i = 0; i < 5_000; i++) deep = { a: deep }
    expect(refusal({ extra: deep })).toEqual({ type: MedusaError.Types.INVALID_DATA, message: "data is nested deeper than 32 levels" })
  })

  it("takes ordinary data, paired surrogates (emoji) and 32 levels of nesting", () => {
    let nested: unknown = "😀"
    for (let i = 0; i < 31; i++) nested = { a: nested }
    expect(refusal({ session_id: "payses_1", payment_method: { type: "card", number: "4111111111111111" }, nested, big: 1e400 })).toBeNull()
  })
})
