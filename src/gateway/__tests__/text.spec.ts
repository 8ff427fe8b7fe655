import fc from "fast-check"
import { storableForReading, unacceptableText } from "../text"

describe("text a person reads, made storable", () => {
  it("replaces U+0000 and unpaired surrogates with U+FFFD and keeps everything else, pairs included", () => {
    expect(storableForReading("a\u0000b\ud800c😀")).toBe("a\uFFFDb\uFFFDc😀")
    // A length cut through an emoji leaves half of it: that half is replaced, not stored as it is.
    expect(storableForReading("x😀".slice(0, 2))).toBe("x\uFFFD")
    expect(storableForReading("Gateway said: declined (1000)")).toBe("Gateway said: declined (1000)")
  })

  it("always gives text that can be stored, and leaves storable text unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        const readable = storableForReading(value)
        expect(unacceptableText(readable)).toBeNull()
        expect(readable).toHaveLength(value.length)
        if (unacceptableText(value) === null) expect(readable).toBe(value)
      }),
    )
  })
})
