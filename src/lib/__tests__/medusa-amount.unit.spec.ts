import fc from "fast-check"
import { medusaAmountInMinorUnits, medusaAmountOf, shareInMinorUnits, shareOfRow } from "../medusa-amount"

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

  it("sends the cent a row with a fraction left behind when it was deleted after a later row's share counted it", () => {
    // A refund of 10.115 in flight (1012), a second one sent meanwhile (its share 1011), the first declined and deleted.
    const rows = [{ id: "a", amount: "10.115" }, { id: "b", amount: "10.115" }]
    expect([shareOfRow(rows, "a", "eur"), shareOfRow(rows, "b", "eur")]).toEqual([1012, 1011])
    // The rest (20.23 of 30.345): the gateway has refunded 1011 of its 3035, so 2024 is left, not 3035 − 1012.
    const after = [rows[1], { id: "c", amount: "20.23" }]
    expect(shareOfRow(after, "c", "eur", new Map([["b", 1011]]))).toBe(2024)
    expect(shareOfRow(after, "c", "eur")).toBe(2023) // counting each row's own share: a cent short
  })

  it("keeps the gateway's sum at Medusa's total rounded, whichever rows in flight are declined and deleted", () => {
    const euros = (tenThousandths: number) => (tenThousandths / 10_000).toFixed(4)
    fc.assert(
      fc.property(fc.array(fc.record({ part: fc.integer({ min: 1, max: 10_000_000 }), declined: fc.boolean() }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 10_000_000 }), (operations, last) => {
        let rows: Array<{ id: string; amount: string }> = []
        const sent = new Map<string, number>()
        let inFlight: string | null = null // a declined row is deleted after the next row's share was sent
        operations.forEach((operation, i) => {
          rows.push({ id: `r${i}`, amount: euros(operation.part) })
          const share = shareOfRow(rows, `r${i}`, "eur", sent)!
          if (inFlight) rows = rows.filter((r) => r.id !== inFlight)
          inFlight = operation.declined ? `r${i}` : null
          if (!operation.declined) sent.set(`r${i}`, share)
        })
        if (inFlight) rows = rows.filter((r) => r.id !== inFlight)
        rows.push({ id: "last", amount: euros(last) })
        sent.set("last", shareOfRow(rows, "last", "eur", sent)!)
        const total = rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 10_000), 0)
        expect(rows.reduce((sum, r) => sum + sent.get(r.id)!, 0)).toBe(medusaAmountInMinorUnits(euros(total), "eur"))
      }),
    )
  })

  it("records the gateway's rest of a whole as Medusa's exact rest, and a part as the gateway's whole cents", () => {
    expect(medusaAmountOf(3035, "eur", { total: "30.345", done: "0" })).toBe("30.345")
    expect(medusaAmountOf(1000, "eur", { total: "30.345", done: "0" })).toBe("10.00")
    expect(medusaAmountOf(2035, "eur", { total: "30.345", done: "10" })).toBe("20.345")
    // After 15.1725 was recorded (1517 at the gateway), the gateway's 1518 is the rest.
    expect(medusaAmountOf(1518, "eur", { total: "30.345", done: "15.1725" })).toBe("15.1725")
  })
})
