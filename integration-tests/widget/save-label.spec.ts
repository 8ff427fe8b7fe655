/**
 * The widget's save checkbox (storefront-widget/src/core/saved-cards.ts): unchanged when the store does not ask the
 * consent to later charges by the shop; when it does, it says so in words naming the shop (or "the shop") in each
 * of the four languages the widget ships.
 */
import { LOCALES, translator } from "../../storefront-widget/src/core/i18n"
import { saveLabel } from "../../storefront-widget/src/core/saved-cards"

describe("widget: the save checkbox's words", () => {
  it("reads 'Save this card for next time' when the store does not ask the consent", async () => {
    expect(saveLabel(await translator("en-US"), null)).toBe("Save this card for next time")
    expect(saveLabel(await translator("sv-SE"))).toBe("Spara kortet till nästa gång")
  })

  it("asks the consent naming the shop, or 'the shop' when it has no name, in every language", async () => {
    expect(saveLabel(await translator("en-US"), { store_name: "Acme" })).toBe("Save this card and allow Acme to charge it for amounts I still owe on my orders")
    expect(saveLabel(await translator("en-US"), { store_name: null })).toBe("Save this card and allow the shop to charge it for amounts I still owe on my orders")
    for (const locale of LOCALES) {
      const t = await translator(locale)
      const named = saveLabel(t, { store_name: "Acme" })
      expect(named).toContain("Acme")
      expect(named).not.toBe(saveLabel(t))
      expect(saveLabel(t, { store_name: null })).toContain(t("shop"))
    }
  })
})
