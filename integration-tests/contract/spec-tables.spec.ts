/**
 * Two readings checked against the text: the field tables of the vendored spec (names, required fields, limits,
 * allowed values) against the sandbox's schemas and against the client's. A reading that departs from the words
 * fails here unless the departure is listed, with its reason, in known-departures.ts.
 */
import { KNOWN } from "./known-departures"
import { departures } from "./readings"
import { spec } from "./spec-objects"

describe.each(["sandbox", "client"] as const)("the %s's schemas against the spec's tables", (side) => {
  const found = departures(side)

  it("depart from the spec only where known-departures.ts says why", () => {
    const unexplained = found.filter((d) => !KNOWN[side].some((k) => k.match.test(d)))
    expect(unexplained).toEqual([])
  })

  it("have no stale explanations", () => {
    const stale = KNOWN[side].filter((k) => !found.some((d) => k.match.test(d))).map((k) => String(k.match))
    expect(stale).toEqual([])
  })
})

describe("the spec reader", () => {
  // Guards against a parser that quietly reads nothing (then every reading would pass).
  it("finds the documented fields, limits and values", () => {
    const authorize = spec.authorize()
    expect(authorize.find((f) => f.name === "reference")).toMatchObject({ min: 1, max: 40 })
    expect(authorize.find((f) => f.name === "transaction_type")?.values).toEqual(["PURCHASE", "AUTHORIZE", "OCT", "PAYOUT"])
    expect(spec.payment().find((f) => f.name === "description")).toMatchObject({ required: true, min: 1, max: 100 })
    expect(spec.instant().find((f) => f.name === "payment_method.data.scheme_code")).toMatchObject({ required: false, digits: 6 })
    expect(spec.createCustomer().find((f) => f.name === "address.region")).toMatchObject({ max: 255 })
    expect(spec.transaction()).toHaveLength(22)
    expect(spec.eventPayload().length).toBeGreaterThan(40)
    expect(spec.voucher().codes).toHaveLength(27)
    expect(spec.events()).toHaveLength(17)
  })
})
