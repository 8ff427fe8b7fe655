import fc from "fast-check"
import { medusaAmountInMinorUnits, medusaAmountOf, shareInMinorUnits } from "../medusa-amount"

describe("Medusa's amounts in the gateway's minor units", () => {
  it("rounds a taxed total as a storefront shows it", () => {
    expect(medusaAmountInMinorUnits("30.345", "eur")).toBe(3035)
    expect(medusaAmountInMinorUnits({ value: "11.8881" }, "eur")).toBe(1189)
    expect(medusaAmountInMinorUnits("1500.5", "jpy")).toBe(1501)
  })

  it("gives parts of a whole shares that add up to the whole, rounded, whatever their fractions", () => {
    // Thousandths of a euro, as a 19 % tax on whole cents leaves them.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 1, maxLength: 12 }), (parts) => {
        let before = "0"
        let sent = 0
        for (const part of parts) {
          const amount = (part / 1000).toFixed(3)
          sent += shareInMinorUnits(before, amount, "eur")
          before = (Number(before) + part / 1000).toFixed(3)
        }
        expect(sent).toBe(medusaAmountInMinorUnits(before, "eur"))
      }),
    )
    expect([shareInMinorUnits("0", "10.115", "eur"), shareInMinorUnits("10.115", "10.115", "eur"), shareInMinorUnits("20.23", "10.115", "eur")]).toEqual([1012, 1011, 1012])
  })

  it("records the gateway's rest of a whole as Medusa's exact rest, and a part as the gateway's whole cents", () => {
    expect(medusaAmountOf(3035, "eur", { total: "30.345", done: "0" })).toBe("30.345")
    expect(medusaAmountOf(1000, "eur", { total: "30.345", done: "0" })).toBe("10.00")
    expect(medusaAmountOf(2035, "eur", { total: "30.345", done: "10" })).toBe("20.345")
    // After 15.1725 was recorded (1517 at the gateway), the gateway's 1518 is the rest.
    expect(medusaAmountOf(1518, "eur", { total: "30.345", done: "15.1725" })).toBe("15.1725")
  })
})
