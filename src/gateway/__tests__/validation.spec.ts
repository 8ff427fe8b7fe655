import { findNonIntegerAmounts, toGatewayErrors } from "../schemas/validation"
import { httpUrl } from "../schemas/common"

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

describe("http(s) URL fields (return_url, error_url, cancel_url, originator_url)", () => {
  it.each(["https://shop.example/return", " https://shop.example/return ", "HTTP://SHOP.EXAMPLE", "http://[::1]:3000/x#done", "https://shop.example/ü"])("accepts %j", (url) => {
    expect(httpUrl.safeParse(url).success).toBe(true)
  })

  it.each(["http:shop.example", "https:/path", "ftp://shop.example", "https://", "javascript:alert(1)", "https://shop example", ""])("refuses %j, naming the rule", (url) => {
    const parsed = httpUrl.safeParse(url)
    expect(parsed.success).toBe(false)
    expect(toGatewayErrors(parsed.error!, url)[0]!.message).toBe("must be an http or https URL")
  })
})
