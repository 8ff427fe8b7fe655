/** What each fulfillment captures (capture on fulfillment), from Medusa's totals as Query returns them. */
import { fulfillmentShare, type OrderForShare } from "../fulfillment-share"

/** Two lines: 3 × mugs for 30.00 total (a 10% discount and tax already in Medusa's total), 1 × poster 12.34; shipping 4.99. */
const order = (fulfillments: OrderForShare["fulfillments"]): OrderForShare => ({
  id: "order_1",
  currency_code: "eur",
  shipping_total: 4.99,
  items: [
    { id: "mug", quantity: 3, total: 30 },
    { id: "poster", quantity: 1, total: 12.34 },
  ],
  fulfillments,
})
const AUTHORIZED = 3000 + 1234 + 499

describe("a fulfillment's share of the payment", () => {
  it("gives the first fulfillment its items and the whole shipping", () => {
    const o = order([{ id: "ful_1", items: [{ line_item_id: "mug", quantity: 1 }] }])
    expect(fulfillmentShare(o, "ful_1", AUTHORIZED)).toEqual({ amount: 1000 + 499, last: false })
  })

  it("gives a later fulfillment only its items, rounded down to the cent", () => {
    const o = order([
      { id: "ful_1", items: [{ line_item_id: "poster", quantity: 1 }] },
      { id: "ful_2", items: [{ line_item_id: "mug", quantity: 1 }] },
    ])
    expect(fulfillmentShare({ ...o, items: [{ id: "mug", quantity: 3, total: 10 }, o.items![1]!] }, "ful_2", 5000)).toEqual({ amount: 333, last: false })
  })

  it("gives the fulfillment that leaves nothing unfulfilled everything that remains", () => {
    const o = order([
      { id: "ful_1", items: [{ line_item_id: "mug", quantity: 1 }] },
      { id: "ful_2", items: [{ line_item_id: "mug", quantity: 2 }, { line_item_id: "poster", quantity: 1 }] },
    ])
    expect(fulfillmentShare(o, "ful_2", AUTHORIZED - 1499)).toEqual({ amount: AUTHORIZED - 1499, last: true })
  })

  it("leaves canceled fulfillments out, and never asks for more than remains", () => {
    const o = order([
      { id: "ful_0", canceled_at: "2026-11-25T00:00:00Z", items: [{ line_item_id: "mug", quantity: 3 }, { line_item_id: "poster", quantity: 1 }] },
      { id: "ful_1", items: [{ line_item_id: "mug", quantity: 1 }] },
    ])
    expect(fulfillmentShare(o, "ful_1", 700)).toEqual({ amount: 700, last: false })
  })
})
