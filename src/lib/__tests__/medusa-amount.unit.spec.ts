import fc from "fast-check"
import { medusaAmountInMinorUnits, medusaAmountOf, shareInMinorUnits } from "../medusa-amount"

describe("Medusa's amounts in the gateway's minor units", () => {
  it("rounds a taxed total as a storefront shows it", () => {
    expect(medusaAmountInMinorUnits("30.345", "eur")).toBe(3035)
    expect(medusaAmountInMinorUnits({ value: "11.8881" }, "eur")).toBe(1189)
    expect(medusaAmountInMinorUnits("1500.5", "jpy")).toBe(1501)
  })

  it("gives each part of a whole a share within a cent of the part rounded alone, never below zero, adding up to the whole rounded", () => {
    // Ten-thousandths of a euro, as taxes and discounts leave them. (Rounding each part alone fails the last check.)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 10_000_000 }), { minLength: 1, maxLength: 12 }), (parts) => {
        let before = 0
        let sent = 0
        for (const part of parts) {
          const share = shareInMinorUnits((before / 10_000).toFixed(4), (part / 10_000).toFixed(4), "eur")
          expect(share).toBeGreaterThanOrEqual(0)
          expect(Math.abs(share - medusaAmountInMinorUnits((part / 10_000).toFixed(4), "eur"))).toBeLessThanOrEqual(1)
          before += part
          sent += share
        }
        expect(sent).toBe(medusaAmountInMinorUnits((before / 10_000).toFixed(4), "eur"))
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
    // What the gateway has left when its records differ from Medusa's sums rounded: 10.114 was sent as 10.12 (a
    // declined row's fraction counted), so 20.23 is left there, not 20.24; that is Medusa's exact rest, 20.231.
    expect(medusaAmountOf(2023, "eur", { total: "30.345", done: "10.114", restMinor: 2023 })).toBe("20.231")
    expect(medusaAmountOf(2024, "eur", { total: "30.345", done: "10.114", restMinor: 2023 })).toBe("20.24")
    expect(medusaAmountOf(2023, "eur", { total: "30.345", done: "10.114" })).toBe("20.23")
  })
})
