/** The order widget's amounts (src/admin/lib/amounts.ts): whole minor units, never floats. */
import { fromMinor, roundedToMinor, toMinor } from "../../src/admin/lib/amounts"

describe("the order widget's amounts", () => {
  it("reads what an admin types only with the currency's decimals", () => {
    expect([toMinor("25.50", 2), toMinor("25,5", 2), toMinor("25", 2), toMinor("1000", 0)]).toEqual([2550, 2550, 2500, 1000])
    expect([toMinor("25.505", 2), toMinor("-1", 2), toMinor("1e3", 2), toMinor("", 2), toMinor("10.5", 0)]).toEqual([null, null, null, null, null])
    expect([fromMinor(2550, 2), fromMinor(5, 2), fromMinor(1000, 0)]).toEqual(["25.50", "0.05", "1000"])
  })

  it("rounds what Medusa says is owed half away from zero, a taxed total's fraction of a cent included", () => {
    expect([roundedToMinor("30.345", 2), roundedToMinor("30.344", 2), roundedToMinor("7.99", 2), roundedToMinor("17", 2), roundedToMinor("999.5", 0)]).toEqual([3035, 3034, 799, 1700, 1000])
    // What String() of a float can give that is not a plain amount: nothing is suggested.
    expect([roundedToMinor("1e-7", 2), roundedToMinor("-5", 2), roundedToMinor("NaN", 2)]).toEqual([null, null, null])
  })
})
