import fc from "fast-check"
import { medusaAmountInMinorUnits } from "../medusa-amount"
import { gatewaySums, inMadeOrder, sentByRow, sentForRows, shareOfRow } from "../operation-shares"

const euros = (tenThousandths: number) => (tenThousandths / 10_000).toFixed(4)

describe("what the gateway is sent for a payment's captures and refunds", () => {
  it("sends the cent a row with a fraction left behind when it was deleted after a later row's share counted it", () => {
    // A refund of 10.115 in flight (1012), a second one sent meanwhile (its share 1011), the first declined and deleted.
    const rows = [{ id: "a", amount: "10.115" }, { id: "b", amount: "10.115" }]
    expect([shareOfRow(rows, "a", "eur"), shareOfRow(rows, "b", "eur")]).toEqual([1012, 1011])
    // The rest (20.23 of 30.345): the gateway has refunded 1011 of its 3035, so 2024 is left, not 3035 − 1012.
    const after = [rows[1], { id: "c", amount: "20.23" }]
    const sent = sentByRow([{ key: "b", amount_minor: 1011 }])
    expect(shareOfRow(after, "c", "eur", sent)).toBe(2024)
    expect(shareOfRow(after, "c", "eur")).toBe(2023) // counting each row's own share: a cent short
    expect(sentForRows([rows[1]], "eur", sent)).toBe(1011)
    expect(sentForRows([rows[1]], "eur")).toBe(1012)
  })

  it("ends the gateway's sum at Medusa's total rounded with the last row, whichever rows in flight were declined and deleted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ part: fc.integer({ min: 1, max: 10_000_000 }), declined: fc.boolean() }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        (operations, last) => {
          let rows: Array<{ id: string; amount: string }> = []
          const sent = new Map<string, number>()
          // As the provider does: a share is sent, or recorded as nothing when it is not above zero.
          const send = (id: string) => {
            const share = shareOfRow(rows, id, "eur", sent)!
            sent.set(id, Math.max(share, 0))
            return share
          }
          let inFlight: string | null = null // a declined row is deleted after the next row's share was sent
          operations.forEach((operation, i) => {
            rows.push({ id: `r${i}`, amount: euros(operation.part) })
            const share = operation.declined ? shareOfRow(rows, `r${i}`, "eur", sent)! : send(`r${i}`)
            // Within two cents of the part rounded alone (one for the rounding, one a declined neighbour's fraction).
            expect(Math.abs(share - medusaAmountInMinorUnits(euros(operation.part), "eur"))).toBeLessThanOrEqual(2)
            if (inFlight) rows = rows.filter((r) => r.id !== inFlight)
            inFlight = operation.declined ? `r${i}` : null
          })
          if (inFlight) rows = rows.filter((r) => r.id !== inFlight)
          rows.push({ id: "last", amount: euros(last) })
          const lastShare = send("last")
          const gatewayTotal = rows.reduce((sum, r) => sum + sent.get(r.id)!, 0)
          const medusaTotal = medusaAmountInMinorUnits(euros(rows.reduce((sum, r) => sum + Math.round(Number(r.amount) * 10_000), 0)), "eur")
          // The rest settles the drift, unless the gateway was already sent more than Medusa's total rounds to.
          if (lastShare >= 0) expect(gatewayTotal).toBe(medusaTotal)
          else expect(gatewayTotal).toBeGreaterThan(medusaTotal)
          expect(sentForRows(rows, "eur", sent)).toBe(gatewayTotal)
        },
      ),
    )
  })

  it("reads Medusa's rows in the order it made them, with their exact amounts", () => {
    const rows = inMadeOrder([
      { id: "ref_b", created_at: "2026-11-27T10:00:01Z", raw_amount: { value: "10.115" } },
      { id: "ref_c", created_at: new Date("2026-11-27T10:00:00Z"), amount: 5 },
      { id: "ref_a", created_at: "2026-11-27T10:00:01Z", raw_amount: { value: "0.0018" } },
    ])
    expect(rows).toEqual([{ id: "ref_c", amount: "5" }, { id: "ref_a", amount: "0.0018" }, { id: "ref_b", amount: "10.115" }])
  })

  it("sums what the gateway captured and refunded of a payment by the provider's records where it has them", () => {
    const payment = {
      currency_code: "eur",
      captures: [{ id: "cap_1", created_at: "2026-11-27T10:00:00Z", raw_amount: { value: "30.345" } }],
      refunds: [
        { id: "ref_2", created_at: "2026-11-27T10:02:00Z", raw_amount: { value: "20" } },
        { id: "ref_1", created_at: "2026-11-27T10:01:00Z", raw_amount: { value: "5.0045" } },
      ],
    }
    expect(gatewaySums(payment, {})).toEqual({ captured: 3035, refunded: 2500 })
    // 5.0045 went as 5.01 (it counted a declined row's fraction); the dashboard's 20.00 as itself.
    const records = { refunds: [{ key: "ref_1", amount_minor: 501 }, { key: "ref_2", amount_minor: 2000 }] }
    expect(gatewaySums(payment, records)).toEqual({ captured: 3035, refunded: 2501 })
  })
})
