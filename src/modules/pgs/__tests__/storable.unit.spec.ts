import fc from "fast-check"
import { fromStorableJson, fromStorableText, toStorableJson, toStorableText } from "../storable"

// What PostgreSQL's text and jsonb refuse: U+0000 and UTF-16 surrogates without their pair.
const refused = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
/** Every string in a JSON value, keys included. */
const stringsOf = (v: unknown): string[] =>
  typeof v === "string" ? [v] : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === "object" ? Object.entries(v).flatMap(([k, x]) => [k, ...stringsOf(x)]) : []
// Any UTF-16 string, lone surrogates and NUL included.
const anyString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) })

describe("values PostgreSQL cannot store", () => {
  it("round-trips every string exactly, and never stores U+0000 or a lone surrogate", () => {
    fc.assert(
      fc.property(anyString, (value) => {
        const stored = toStorableText(value)
        expect(refused.test(stored)).toBe(false)
        expect(fromStorableText(stored)).toBe(value)
      }),
    )
  })

  it("leaves ordinary strings, emoji included, exactly as they are", () => {
    for (const value of ["", "Order 1001", "Zoë 🎁", "\u001b", "trx_01JABC"]) expect(toStorableText(value)).toBe(value)
  })

  it("round-trips JSON with such strings in values and keys, and stores none of them", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), anyString, (json, odd) => {
        const value = { json, [odd]: odd, list: [odd, { [odd]: 1 }] }
        const stored = toStorableJson(value)
        expect(stringsOf(stored).filter((x) => refused.test(x))).toEqual([])
        // Compared with the value after a JSON round trip of its own: JSON has no -0, any column gives back 0.
        expect(fromStorableJson(JSON.parse(JSON.stringify(stored)))).toEqual(JSON.parse(JSON.stringify(value)))
      }),
    )
  })

  it("keeps null text null", () => {
    expect(toStorableText(null)).toBeNull()
    expect(fromStorableText(null)).toBeNull()
  })
})
