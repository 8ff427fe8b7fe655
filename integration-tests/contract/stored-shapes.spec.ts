/**
 * Rolling upgrades: the previous release reads what this build writes (scripts/stored-shapes.ts). Each released
 * reader's shape is kept in release/stored-shapes/; this build's stored session data must be something every reader
 * that may run beside it accepts: the release this build is on its way to, and the one before it.
 */
import fs from "node:fs"
import path from "node:path"
import { compareVersions, currentStoredShape, readerProblems, releasedShapeDrift, releasedShapes, type JsonSchema } from "../../scripts/stored-shapes"

const ROOT = path.resolve(__dirname, "../..")
const version = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version as string
const base = version.replace(/-.*$/, "")
const released = releasedShapes()
/** The readers that may run beside this build: its own release's, and the newest one before it. */
const beside = [...released.filter((r) => r.version === base), ...released.filter((r) => compareVersions(r.version, base) < 0).slice(-1)]

/** This build's shape with one change, to show the check refuses it. */
function changed(edit: (shape: JsonSchema) => void): JsonSchema {
  const shape = structuredClone(currentStoredShape())
  edit(shape)
  return shape
}

describe("stored session data across a rolling upgrade", () => {
  it("has a released reader to compare with, for this build's release line", () => {
    expect(beside.map((r) => r.version)).toContain(base)
  })

  it("keeps, once released, exactly the shape its reader accepts (a field added during development is in it)", () => {
    expect(releasedShapeDrift(version, released.find((r) => r.version === base)!.shape, currentStoredShape())).toEqual([])
    const draft = changed((s) => delete s.properties.wallet_hint)
    const grown = changed((s) => (s.properties.wallet_hint = { type: "string" }))
    expect(releasedShapeDrift("9.1.0-dev.0", draft, grown)).toEqual([])
    expect(releasedShapeDrift("9.1.0", draft, grown)).toEqual(["release/stored-shapes/9.1.0.json is not 9.1.0's stored shape: run npm run release:stored-shape before cutting 9.1.0"])
  })

  it("orders releases by number, not as text (0.9.0 before 0.10.0)", () => {
    expect(["0.10.0", "0.9.0", "0.2.0"].sort(compareVersions)).toEqual(["0.2.0", "0.9.0", "0.10.0"])
  })

  it("writes only what every reader that may run beside this build accepts", () => {
    for (const { version: v, shape } of beside) expect({ release: v, problems: readerProblems(shape, currentStoredShape()) }).toEqual({ release: v, problems: [] })
  })

  it("keeps keys it does not know anywhere in the stored shape, so a newer release's fields survive its writes", () => {
    const objects: string[] = []
    const walk = (s: JsonSchema, at: string) => {
      if (!s || typeof s !== "object") return
      if (s.type === "object" && s.properties && s.additionalProperties === undefined) objects.push(at)
      for (const [k, v] of Object.entries<JsonSchema>(s.properties ?? {})) walk(v, `${at}.${k}`)
      for (const b of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(b, at)
      if (s.items) walk(s.items, `${at}[]`)
    }
    walk(currentStoredShape(), "data")
    expect(objects).toEqual([])
  })

  describe("catches a change the released reader would refuse", () => {
    const released = beside.find((r) => r.version === base)!.shape
    const problemsOf = (edit: (shape: JsonSchema) => void) => readerProblems(released, changed(edit))

    it("a field the reader requires, made optional", () => {
      expect(problemsOf((s) => (s.required = s.required.filter((k: string) => k !== "reference")))).toEqual(["data.reference: the released reader requires it, this build may leave it out"])
    })

    it("a new value of an enum", () => {
      expect(problemsOf((s) => s.properties.integration.enum.push("pay_by_bank"))).toEqual(['data.integration: the released reader does not know the value "pay_by_bank"'])
    })

    it("a keyword the check cannot compare, reported rather than passed", () => {
      const reader = changed((s) => (s.properties.amount_minor = { type: "integer", multipleOf: 5 }))
      expect(readerProblems(reader, currentStoredShape())).toEqual([
        "data.amount_minor: the released reader uses multipleOf, which this check cannot compare; compare it by hand and teach scripts/stored-shapes.ts",
      ])
    })

    it("a field's type changed", () => {
      expect(problemsOf((s) => (s.properties.amount_minor = { type: "string" }))).toEqual(["data.amount_minor: the released reader takes only integer, this build may write string"])
    })

    it("a looser bound", () => {
      expect(problemsOf((s) => (s.properties.attempt.minimum = 0))).toEqual(["data.attempt: the released reader needs minimum 1, this build allows 0"])
    })

    it("a required field inside a nested record, left out", () => {
      expect(problemsOf((s) => (s.properties.captures.items.required = ["key"]))).toEqual(expect.arrayContaining([expect.stringMatching(/^data\.captures\[\]\.transaction_id: the released reader requires it/)]))
    })

    it("a new form of a union the reader does not know", () => {
      expect(problemsOf((s) => s.properties.payment_method.oneOf.push({ type: "object", properties: { type: { type: "string", const: "bank_account" } }, required: ["type"], additionalProperties: {} }))).toEqual([
        expect.stringMatching(/^data\.payment_method: no form the released reader knows takes it/),
      ])
    })

    it("and passes an added optional field, which a released reader keeps", () => {
      expect(problemsOf((s) => (s.properties.new_field = { type: "string" }))).toEqual([])
    })
  })
})
