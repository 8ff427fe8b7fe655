import { blankUnissued } from "../storefront-data"

describe("storefront data the provider did not issue", () => {
  it("is blanked at every depth, while the provider's own values win", () => {
    const sent = {
      session_id: "payses_1",
      payment_method: { type: "wallet-one", token: "secret-token" },
      surprise: { nested: true },
      browser_info: { language: "en" },
    }
    const ours = { session_id: "payses_1", payment_method: { type: "wallet-one" }, browser_info: { language: "en" }, sealed: "v1.x" }
    expect(blankUnissued(sent, ours)).toEqual({
      session_id: "payses_1",
      payment_method: { type: "wallet-one", token: null },
      surprise: null,
      browser_info: { language: "en" },
      sealed: "v1.x",
    })
  })

  it("keeps the provider's value when the storefront sent a scalar or array under the same key", () => {
    expect(blankUnissued({ save_card: "yes", list: [1] }, { save_card: true, list: [2] })).toEqual({ save_card: true, list: [2] })
  })
})
