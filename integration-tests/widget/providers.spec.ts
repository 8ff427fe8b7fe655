/**
 * The widget's provider helper (storefront-widget/src/core/providers.ts): which payment provider ids are PGS's and
 * their English names, as a storefront's method lists and order pages (the starter's paymentInfoMap) use them.
 */
import { FAMILIES } from "../../src/payments/method-families"
import { isPgsProvider, pgsProviderIds, pgsProviderInfo, PGS_FAMILIES } from "../../storefront-widget/src/core/providers"
import * as core from "../../storefront-widget/src/core"

describe("widget: PGS provider ids and names", () => {
  it("knows the plugin's 13 providers: the card and every method family", () => {
    expect([...PGS_FAMILIES].map((f) => `pgs-${f}`).sort()).toEqual(Object.values(FAMILIES).map((f) => f.identifier).sort())
    const ids = pgsProviderIds()
    expect(ids).toHaveLength(13)
    expect(ids[0]).toBe("pp_pgs_pgs")
    expect(ids).toContain("pp_pgs-open-banking_pgs")
    expect(ids).toContain("pp_pgs-hosted_pgs")
    expect(pgsProviderIds("eu")).toContain("pp_pgs-upi_eu")
  })

  it("names each one in English, as the widget itself does", () => {
    expect(Object.fromEntries(pgsProviderIds().map((id) => [id, pgsProviderInfo(id)]))).toEqual({
      pp_pgs_pgs: { title: "Card" },
      "pp_pgs-hosted_pgs": { title: "Card on a secure payment page" },
      "pp_pgs-open-banking_pgs": { title: "Online banking" },
      "pp_pgs-upi_pgs": { title: "UPI" },
      "pp_pgs-wallets_pgs": { title: "Other wallets (chosen on the next page)" },
      "pp_pgs-bank-transfer_pgs": { title: "Bank transfer" },
      "pp_pgs-qr-code_pgs": { title: "QR code" },
      "pp_pgs-bank-scheme-redirect_pgs": { title: "Bank payment" },
      "pp_pgs-openbanking-redirect_pgs": { title: "Online banking on your bank's page" },
      "pp_pgs-provider-instant_pgs": { title: "Instant payment with a code" },
      "pp_pgs-wallet-one-redirect_pgs": { title: "Wallet One" },
      "pp_pgs-wallet-two-redirect_pgs": { title: "Wallet Two" },
      "pp_pgs-voucher-redirect_pgs": { title: "Voucher" },
    })
  })

  it("works under any registration id", () => {
    expect(pgsProviderInfo("pp_pgs_eu")).toEqual({ title: "Card" })
    expect(pgsProviderInfo("pp_pgs-upi_store_eu")).toEqual({ title: "UPI" })
  })

  it.each([["pp_system_default"], ["pp_stripe_stripe"], ["pp_pgs-unknown_pgs"], ["pp_pgsx_pgs"], ["pp_pgs_"], ["pgs"], [""], [undefined], [null]])(
    "is not fooled by %p",
    (id) => {
      expect(isPgsProvider(id)).toBe(false)
      expect(pgsProviderInfo(id)).toBeUndefined()
    },
  )

  it("is exported from the core entry", () => {
    expect(core.isPgsProvider).toBe(isPgsProvider)
    expect(core.pgsProviderInfo).toBe(pgsProviderInfo)
    expect(core.pgsProviderIds).toBe(pgsProviderIds)
  })
})
