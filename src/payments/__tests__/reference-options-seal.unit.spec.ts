import { generateKeyPairSync } from "node:crypto"
import { gatewayReferenceFor, sessionIdFromReference } from "../reference"
import { pgsOptionsFromEnv } from "../../config"
import { parseOptions } from "../../modules/pgs/options"
import { FAMILIES, gatewayMethodOf } from "../method-families"
import { browserInfoOf, Sealer } from "../seal"

const SESSION = "payses_01JABCDEFGHJKMNPQRSTVWXYZ0"

describe("gateway references", () => {
  it("is the session id on the first attempt and adds -N from the second on, within 40 characters", () => {
    expect(gatewayReferenceFor(SESSION, 1)).toBe(SESSION)
    expect(gatewayReferenceFor(SESSION, 2)).toBe(`${SESSION}-2`)
    expect(gatewayReferenceFor(SESSION, 999_999).length).toBeLessThanOrEqual(40)
  })

  it("leads back to the session id, and to null for references we did not make", () => {
    expect(sessionIdFromReference(gatewayReferenceFor(SESSION, 1))).toBe(SESSION)
    expect(sessionIdFromReference(gatewayReferenceFor(SESSION, 17))).toBe(SESSION)
    expect(sessionIdFromReference("order-1234")).toBeNull()
    expect(sessionIdFromReference(`${SESSION}-1`)).toBeNull()
    expect(sessionIdFromReference(`${SESSION}-x`)).toBeNull()
  })

  it("refuses ids that are not payment sessions and bad attempt numbers", () => {
    expect(() => gatewayReferenceFor("cart_123", 1)).toThrow(/payment session id/)
    expect(() => gatewayReferenceFor(SESSION, 0)).toThrow(/attempt/)
  })
})

describe("provider options", () => {
  const pem = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({ type: "spki", format: "pem" }).toString()
  const good = {
    apiUrl: "https://api.pgs.example",
    authUrl: "https://auth.pgs.example",
    realm: "uat",
    clientId: "id",
    clientSecret: "secret",
    clientKey: "key",
    environment: "test",
    merchantPublicKey: pem,
    defaultTerminalId: "TERM-001",
    storeUrl: "https://shop.example",
    backendUrl: "https://api.shop.example",
  }

  it("accepts a complete configuration and defaults the transaction type to AUTHORIZE", () => {
    expect(parseOptions(good).defaultTransactionType).toBe("AUTHORIZE")
  })

  it("names every bad option with its fix in one error", () => {
    const error = (() => {
      try {
        parseOptions({ ...good, clientSecret: "", apiUrl: "not a url", merchantPublicKey: "-----BEGIN nonsense" })
      } catch (e) {
        return e as Error
      }
      throw new Error("expected a throw")
    })()
    expect(error.message).toMatch(/clientSecret is missing: set PGS_CLIENT_SECRET \(merchant details in the gateway dashboard\)/)
    expect(error.message).toMatch(/apiUrl is not an http\(s\) URL: set PGS_API_URL/)
    expect(error.message).toMatch(/merchantPublicKey is not a PEM public key/)
  })

  it("takes only the realms the gateway has, uat and production, and names PGS_REALM otherwise", () => {
    expect(parseOptions({ ...good, realm: "production" }).realm).toBe("production")
    expect(() => parseOptions({ ...good, realm: "staging" })).toThrow(/- realm must be "uat" or "production": set PGS_REALM/)
  })

  it("reads every option from the PGS_* variables of the environment, numbers as numbers", () => {
    const env = {
      PGS_API_URL: good.apiUrl,
      PGS_AUTH_URL: good.authUrl,
      PGS_REALM: "uat",
      PGS_CLIENT_ID: "id",
      PGS_CLIENT_SECRET: "secret",
      PGS_CLIENT_KEY: "key",
      PGS_MERCHANT_PUBLIC_KEY: pem.replace(/\n/g, "\\n"),
      PGS_TERMINAL_ID: "TERM-001",
      PGS_STORE_URL: good.storeUrl,
      PGS_BACKEND_URL: good.backendUrl,
      PGS_PAYOUT_TERMINAL_ID: "PAYOUT-01",
      PGS_LOCALE: "",
      PGS_TIMEOUT_MANAGE_MS: "2000",
      PGS_WEBHOOK_RECEIVER_PORT: "9100",
    }
    const options = pgsOptionsFromEnv(env)
    expect(options).toMatchObject({ clientSecret: "secret", payoutTerminalId: "PAYOUT-01", timeouts: { manage: 2000 }, webhookReceiver: { port: 9100 } })
    expect(options).not.toHaveProperty("locale")
    expect(parseOptions(options).merchantPublicKey).toBe(pem)
  })

  it("names the environment variable to set for a missing option read from the environment", () => {
    expect(() => parseOptions(pgsOptionsFromEnv({ PGS_REALM: "uat" }))).toThrow(/- clientSecret is missing: set PGS_CLIENT_SECRET/)
  })

  it("accepts raw card fields only under the stated PCI DSS scope SAQ_D", () => {
    expect(parseOptions({ ...good, rawCardDataPciScope: "SAQ_D" }).rawCardDataPciScope).toBe("SAQ_D")
    expect(() => parseOptions({ ...good, rawCardDataPciScope: "SAQ_A" })).toThrow(/rawCardDataPciScope/)
  })

  it("refuses network tokens from the storefront unless networkTokensFromStorefront (PGS_NETWORK_TOKENS_FROM_STOREFRONT) is true", () => {
    expect(parseOptions(good).networkTokensFromStorefront).toBe(false)
    expect(parseOptions(pgsOptionsFromEnv({ ...envOf(good), PGS_NETWORK_TOKENS_FROM_STOREFRONT: "true" })).networkTokensFromStorefront).toBe(true)
    expect(() => parseOptions(pgsOptionsFromEnv({ ...envOf(good), PGS_NETWORK_TOKENS_FROM_STOREFRONT: "yes" }))).toThrow(
      /- networkTokensFromStorefront must be true or false: leave PGS_NETWORK_TOKENS_FROM_STOREFRONT unset \(false\)/,
    )
  })

  it("takes per-call timeouts in whole positive milliseconds and names the option when they are not", () => {
    expect(parseOptions({ ...good, timeouts: { manage: 2000, read: 500 } }).timeouts).toEqual({ manage: 2000, read: 500 })
    expect(parseOptions(good).timeouts).toBeUndefined()
    expect(() => parseOptions({ ...good, timeouts: { manage: 0 } })).toThrow(/timeouts .*positive whole number/)
    expect(() => parseOptions({ ...good, timeouts: { manage: 1.5 } })).toThrow(/- timeouts /)
    expect(() => parseOptions({ ...good, timeouts: { connect: 1000 } })).toThrow(/- timeouts /)
  })

  it("keeps history 180 days unless retentionDays (PGS_RETENTION_DAYS) says otherwise, at least a week", () => {
    expect(parseOptions(good).retentionDays).toBe(180)
    expect(parseOptions(pgsOptionsFromEnv({ ...envOf(good), PGS_RETENTION_DAYS: "730" })).retentionDays).toBe(730)
    expect(() => parseOptions({ ...good, retentionDays: 3 })).toThrow(/- retentionDays must be at least 7 days: leave PGS_RETENTION_DAYS unset \(180\)/)
    expect(() => parseOptions(pgsOptionsFromEnv({ ...envOf(good), PGS_RETENTION_DAYS: "half a year" }))).toThrow(/- retentionDays /)
  })

  it("selects the bank redirects with the method values the merchant sets, defaulting to the sandbox's", () => {
    const defaults = parseOptions(good)
    expect(gatewayMethodOf(FAMILIES.bankSchemeRedirect, defaults)).toBe("BANK_SCHEME_REDIRECT")
    expect(gatewayMethodOf(FAMILIES.openbankingRedirect, defaults)).toBe("OPENBANKING_REDIRECT")
    const custom = parseOptions({ ...good, bankRedirectMethods: { bankSchemeRedirect: "INTERAC_ONLINE" } })
    expect(gatewayMethodOf(FAMILIES.bankSchemeRedirect, custom)).toBe("INTERAC_ONLINE")
    expect(gatewayMethodOf(FAMILIES.openbankingRedirect, custom)).toBe("OPENBANKING_REDIRECT")
    expect(() => parseOptions({ ...good, bankRedirectMethods: { bankSchemeRedirect: "interac" } })).toThrow(/- bankRedirectMethods /)
    expect(() => parseOptions({ ...good, bankRedirectMethods: { other: "X_Y" } })).toThrow(/- bankRedirectMethods /)
  })

  it("builds the voucher type from the chosen code with its mandatory prefix", () => {
    expect(gatewayMethodOf(FAMILIES.voucherRedirect, parseOptions(good), "ali")).toBe("voucher-redirect-ali")
    expect(gatewayMethodOf(FAMILIES.upi, parseOptions(good))).toBe("UPI")
  })
})

describe("sealed session secrets", () => {
  const sealer = new Sealer("client-secret")

  it("round-trips for the same session and refuses another session or a changed blob", () => {
    const blob = sealer.seal({ payment_data: "opaque" }, SESSION)
    expect(blob).not.toContain("opaque")
    expect(sealer.open(blob, SESSION)).toEqual({ payment_data: "opaque" })
    expect(() => sealer.open(blob, "payses_01JOTHERSESSION000000000000")).toThrow(/another session/)
    const tampered = blob.slice(0, -2) + (blob.endsWith("A") ? "BB" : "AA")
    expect(() => sealer.open(tampered, SESSION)).toThrow()
  })

  it("keeps the browser's details sealed, and still reads them from the public data of a session an earlier version made", () => {
    const browser = { user_agent: "Mozilla/5.0", accept_header: "text/html", java_enabled: false, color_depth: 24, screen_height: 800, screen_width: 390, time_zone_offset: -60, language: "en-GB" }
    const blob = sealer.seal({ browser_info: browser }, SESSION)
    expect(blob).not.toContain("Mozilla")
    expect(browserInfoOf({ browser_info: null }, sealer.open(blob, SESSION))).toEqual(browser)
    const earlier = { browser_info: { ...browser, screen_width: 1280 } }
    expect(browserInfoOf(earlier, {})).toEqual(earlier.browser_info)
    expect(browserInfoOf(earlier, sealer.open(blob, SESSION))).toEqual(browser)
    expect(browserInfoOf({}, {})).toBeUndefined()
  })

  it("binds reference, terminal, amount and currency with an integrity code", () => {
    const fields = { session_id: SESSION, reference: SESSION, terminal_id: "TERM-001", transaction_type: "AUTHORIZE", currency_code: "eur", amount_minor: 1000 }
    const integrity = sealer.integrity(fields)
    expect(sealer.verifyIntegrity({ ...fields, integrity })).toBe(true)
    expect(sealer.verifyIntegrity({ ...fields, amount_minor: 1, integrity })).toBe(false)
    expect(new Sealer("another-secret").verifyIntegrity({ ...fields, integrity })).toBe(false)
  })
})

/** The options as PGS_* variables (what a .env file holds). */
function envOf(o: Record<string, unknown>): Record<string, string> {
  const names: Record<string, string> = {
    apiUrl: "PGS_API_URL", authUrl: "PGS_AUTH_URL", realm: "PGS_REALM", clientId: "PGS_CLIENT_ID", clientSecret: "PGS_CLIENT_SECRET",
    clientKey: "PGS_CLIENT_KEY", defaultTerminalId: "PGS_TERMINAL_ID", storeUrl: "PGS_STORE_URL", backendUrl: "PGS_BACKEND_URL",
  }
  return Object.fromEntries(Object.entries(names).filter(([k]) => typeof o[k] === "string").map(([k, v]) => [v, o[k] as string]))
}
