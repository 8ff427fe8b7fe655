import fc from "fast-check"
import { currencyExponent, fromMinorUnits, isoCurrencies, MoneyError, toMinorUnits } from "../money"

describe("money", () => {
  it.each([
    ["10", "EUR", 1000],
    ["10.5", "EUR", 1050],
    ["10.50", "EUR", 1050],
    ["0.01", "USD", 1],
    ["1000", "JPY", 1000],
    ["1000.0", "JPY", 1000],
    ["1.005", "KWD", 1005],
    ["12.345", "BHD", 12345],
    ["0.001", "JOD", 1],
    ["1e2", "EUR", 10000],
    ["1.5E-1", "EUR", 15],
    ["90071992547409.91", "EUR", 9007199254740991],
  ])("converts %s %s to %d minor units", (major, currency, minor) => {
    expect(toMinorUnits(major, currency)).toBe(minor)
  })

  it.each([
    [0.1, "EUR", 10],
    [19.99, "EUR", 1999],
    [0.29, "USD", 29],
    [1.005, "KWD", 1005],
    [150, "JPY", 150],
  ])("converts the number %d %s exactly, without float drift", (major, currency, minor) => {
    expect(toMinorUnits(major, currency)).toBe(minor)
  })

  it("accepts bigint, Medusa's raw BigNumber shape, a BigNumber-like instance and bignumber.js-like objects", () => {
    expect(toMinorUnits(25n, "EUR")).toBe(2500)
    expect(toMinorUnits({ value: "12.34", precision: 20 } as { value: string }, "EUR")).toBe(1234)
    expect(toMinorUnits({ raw: { value: "7.5", precision: 20 } } as { raw: { value: string } }, "EUR")).toBe(750)
    expect(toMinorUnits({ toFixed: () => "3.21" }, "EUR")).toBe(321)
    expect(toMinorUnits({ toString: () => "4.56" }, "EUR")).toBe(456)
    expect(toMinorUnits({ valueOf: () => 7.89 }, "EUR")).toBe(789)
  })

  it.each([
    ["0.001", "EUR"],
    ["1.5", "JPY"],
    ["1.0005", "KWD"],
    ["10.123", "USD"],
  ])("refuses %s %s (a fraction of a minor unit) instead of rounding", (major, currency) => {
    expect(() => toMinorUnits(major, currency)).toThrow(MoneyError)
  })

  it.each([
    ["30.345", "EUR", 3035],
    ["30.3449999", "EUR", 3034],
    ["11.8881", "EUR", 1189],
    ["-30.345", "EUR", -3035],
    ["1.5", "JPY", 2],
    ["2.4999", "JPY", 2],
    ["1.00049", "KWD", 1000],
    ["10.50", "EUR", 1050],
  ])("rounds %s %s to %d minor units half away from zero when asked to", (major, currency, minor) => {
    expect(toMinorUnits(major, currency, "half-away-from-zero")).toBe(minor)
  })

  it("rounds as Intl.NumberFormat shows an amount (its default rounding)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 9 }), (thousandths, extra) => {
        const text = `${Math.floor(thousandths / 1000)}.${String(thousandths % 1000).padStart(3, "0")}${extra}`
        const shown = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: false }).format(text as unknown as number)
        expect(fromMinorUnits(toMinorUnits(text, "EUR", "half-away-from-zero"), "EUR")).toBe(shown)
      }),
    )
  })

  it.each(["abc", "", "1,50", "1.2.3", "--1", "Infinity"])("refuses the non-decimal %p", (text) => {
    expect(() => toMinorUnits(text, "EUR")).toThrow(MoneyError)
  })

  it("refuses unknown currencies and amounts beyond safe JSON integers", () => {
    expect(() => toMinorUnits("1", "XYZ")).toThrow(/Unknown ISO 4217/)
    expect(() => toMinorUnits("90071992547409.92", "EUR")).toThrow("90071992547409.92 EUR is beyond the largest amount that can be sent, 90071992547409.91 EUR")
  })

  it("reads exponents from the ISO 4217 list", () => {
    expect([currencyExponent("JPY"), currencyExponent("EUR"), currencyExponent("KWD"), currencyExponent("BHD"), currencyExponent("JOD")]).toEqual([0, 2, 3, 3, 3])
  })

  it.each([
    [1050, "EUR", "10.50"],
    [5, "EUR", "0.05"],
    [1000, "JPY", "1000"],
    [1005, "KWD", "1.005"],
    [-250, "EUR", "-2.50"],
  ])("formats %d %s minor units as %s", (minor, currency, major) => {
    expect(fromMinorUnits(minor, currency)).toBe(major)
  })

  it("round-trips every minor amount of every ISO 4217 currency", () => {
    const currencies = isoCurrencies()
    expect(currencies.length).toBeGreaterThan(150)
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.maxSafeNat(), (currency, minor) => {
        const major = fromMinorUnits(minor, currency)
        return toMinorUnits(major, currency) === minor
      }),
      { numRuns: 2000 },
    )
  })

  it("round-trips major amounts written with any number of trailing zeros", () => {
    fc.assert(
      fc.property(fc.constantFrom(...isoCurrencies()), fc.nat({ max: 10 ** 9 }), fc.nat({ max: 6 }), (currency, minor, zeros) => {
        const major = fromMinorUnits(minor, currency)
        const padded = major.includes(".") ? major + "0".repeat(zeros) : `${major}.${"0".repeat(zeros)}`
        return toMinorUnits(padded, currency) === minor
      }),
    )
  })
})
