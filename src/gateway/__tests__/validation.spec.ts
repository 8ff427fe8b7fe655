import { findNonIntegerAmounts } from "../schemas/validation"

describe("decimal amounts in the raw request bytes", () => {
  it.each([
    ['{"amount":100.00}', ["amount"]],
    ['{"amount": 1e3, "x": 1}', ["amount"]],
    ['{"reference":"amount","amount":2.5}', ["amount"]],
  ])("flags %s", (raw, expected) => {
    expect(findNonIntegerAmounts(raw)).toEqual(expected)
  })

  it.each([
    ['{"amount":100}'],
    // Free-form metadata may say anything about amounts.
    ['{"metadata":{"order_amount":"19.99","amount":1.5},"amount":10}'],
    ['{"description":"say \\"amount\\": 1.5","amount":3}'],
    // A string amount is the schema's to refuse (wrong type), not this check's.
    ['{"amount":"100"}'],
  ])("leaves %s alone", (raw) => {
    expect(findNonIntegerAmounts(raw)).toEqual([])
  })
})
