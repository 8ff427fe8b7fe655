import { pgsOptionsFromEnv } from "../../config"
import { checkPayLink, payLinkUrl, signPayLink } from "../pay-link"

const COLLECTION = "pay_col_01JABCDEFGHJKMNPQRSTVWXYZ0"
const SECRET = "client secret"
const NOW = Date.UTC(2026, 10, 25, 4, 0, 0)

describe("pay link tokens", () => {
  it("is valid for its collection until its expiry, then expired", () => {
    const token = signPayLink(SECRET, COLLECTION, NOW + 60_000)
    expect(checkPayLink(SECRET, COLLECTION, token, NOW)).toBe("valid")
    expect(checkPayLink(SECRET, COLLECTION, token, NOW + 61_000)).toBe("expired")
  })

  it("cannot be moved to another collection, given a later expiry, or made with another secret", () => {
    const token = signPayLink(SECRET, COLLECTION, NOW + 60_000)
    const [expiry, mac] = token.split(".")
    expect(checkPayLink(SECRET, "pay_col_01JABCDEFGHJKMNPQRSTVWXYZ1", token, NOW)).toBe("invalid")
    expect(checkPayLink(SECRET, COLLECTION, `${Number(expiry) + 3600}.${mac}`, NOW)).toBe("invalid")
    expect(checkPayLink(SECRET, COLLECTION, signPayLink("another secret", COLLECTION, NOW + 60_000), NOW)).toBe("invalid")
    for (const bad of [undefined, "", "x", `${expiry}.`, `${expiry}.${mac}x`, `-1.${mac}`]) expect(checkPayLink(SECRET, COLLECTION, bad, NOW)).toBe("invalid")
  })

  it("never puts the secret in the link", () => {
    const url = payLinkUrl("https://api.example.com/", SECRET, COLLECTION, NOW + 60_000)
    expect(url).toMatch(/^https:\/\/api\.example\.com\/pgs\/pay\/pay_col_\w+\?t=\d+\.[\w-]{43}$/)
    expect(url).not.toContain(encodeURIComponent(SECRET))
  })
})

describe("pay link and saved card options from the environment", () => {
  it("reads the link's validity in days and the consent switch", () => {
    expect(pgsOptionsFromEnv({ PGS_PAY_LINK_VALID_DAYS: "3", PGS_SAVED_CARD_CONSENT: "true" })).toMatchObject({ payLinkValidDays: 3, savedCardConsent: true })
    expect(pgsOptionsFromEnv({ PGS_SAVED_CARD_CONSENT: "yes" })).toMatchObject({ savedCardConsent: "yes" })
  })
})
