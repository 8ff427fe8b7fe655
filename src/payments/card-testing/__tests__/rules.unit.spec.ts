import { RateLimiterMemory } from "rate-limiter-flexible"
import { DEFAULT_CARD_TESTING } from "../../../modules/pgs/card-testing-options"
import { counterKey, limiterOptions, type Counters } from "../counters"
import { admitAttempt, cardKey, countDecline } from "../rules"

/** The store's counters with the library's memory store: the same limits, no database. */
const memoryCounters = (options = DEFAULT_CARD_TESTING): Counters =>
  Object.fromEntries(Object.entries(limiterOptions(options)).map(([name, o]) => [name, new RateLimiterMemory(o)])) as unknown as Counters

const shopper = { address: "203.0.113.7", cart: "cart_1", email: "Ada@example.com", session: "payses_1" }

describe("card-testing counting rules", () => {
  it("lets a shopper with three declines pay with the next card", async () => {
    const counters = memoryCounters()
    for (const card of ["c1", "c2", "c3"]) {
      expect(await admitAttempt(counters, shopper, true)).toBeNull()
      expect(await countDecline(counters, shopper, card)).toBeNull()
    }
    expect(await admitAttempt(counters, shopper, true)).toBeNull()
  })

  it("refuses a cart at its fourth decline for the block's 20 minutes, and the address at its fifth across carts", async () => {
    const counters = memoryCounters()
    for (let i = 0; i < 3; i++) await countDecline(counters, shopper, `card${i}`)
    const refusal = await countDecline(counters, shopper, "card3")
    expect(refusal).toEqual({ counter: "declinesPerCart", retryAfterSeconds: 20 * 60, startsBlock: true })
    expect(await admitAttempt(counters, shopper, false)).toMatchObject({ retryAfterSeconds: 20 * 60 })

    const other = memoryCounters()
    for (let i = 0; i < 4; i++) expect(await countDecline(other, { address: "198.51.100.1", cart: `cart_${i}`, email: `e${i}@x.io` }, null)).toBeNull()
    expect(await countDecline(other, { address: "198.51.100.1", cart: "cart_9", email: "e9@x.io" }, null)).toMatchObject({ counter: "declinesPerAddress" })
    expect(await admitAttempt(other, { address: "198.51.100.1", cart: "cart_new" }, true)).not.toBeNull()
    expect(await admitAttempt(other, { address: "198.51.100.2", cart: "cart_new" }, true)).toBeNull()
  })

  it("counts emails without regard to case", async () => {
    const counters = memoryCounters()
    for (let i = 0; i < 4; i++) await countDecline(counters, { email: i % 2 ? "BOT@x.io" : "bot@x.io" }, null)
    expect(await admitAttempt(counters, { email: "Bot@X.io" }, false)).toMatchObject({ counter: "declinesPerEmail" })
  })

  it("blocks whoever sends one card declined three times, whatever its own counts", async () => {
    const counters = memoryCounters()
    for (let i = 0; i < 2; i++) await countDecline(counters, { address: `192.0.2.${i}` }, "hash:card")
    expect(await countDecline(counters, { address: "192.0.2.9", cart: "c9" }, "hash:card")).toMatchObject({ counter: "declinesPerCard" })
    expect(await admitAttempt(counters, { address: "192.0.2.9" }, false)).not.toBeNull()
    expect(await admitAttempt(counters, { cart: "c9" }, false)).not.toBeNull()
  })

  it("lets a cart open as many gateway sessions, and an address make as many attempts, as their limits, and refuses the next", async () => {
    const counters = memoryCounters({ ...DEFAULT_CARD_TESTING, sessionsPerCart: 3, attemptsPerAddress: 5 })
    for (let i = 0; i < 3; i++) expect(await admitAttempt(counters, { address: "a", cart: "c" }, true)).toBeNull()
    expect(await admitAttempt(counters, { address: "a", cart: "c" }, true)).toMatchObject({ counter: "sessionsPerCart", retryAfterSeconds: 20 * 60 })
    expect(await admitAttempt(counters, { address: "a", cart: "other" }, false)).toBeNull() // the address's fifth
    expect(await admitAttempt(counters, { address: "a", cart: "other2" }, false)).toMatchObject({ counter: "attemptsPerAddress" })
  })

  it("names a card by the gateway's hash, else its masked number and expiry", () => {
    expect(cardKey({ payment_method_hash: "h1", payment_method_masked: "411111******1111" })).toBe("hash:h1")
    expect(cardKey({ payment_method_masked: "411111******1111", payment_method_expiry: "2030-12-01" })).toBe("masked:411111******1111:2030-12-01")
    expect(cardKey({})).toBeNull()
  })

  it("keeps every counter key within the table's 255 characters, and long keys apart", () => {
    expect(counterKey("203.0.113.7")).toBe("203.0.113.7")
    const long = `${"a".repeat(240)}@example.com`
    expect(counterKey(long)).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(counterKey(long)).not.toBe(counterKey(`${"a".repeat(241)}@example.com`))
    // A short key spelled like a hashed one is itself longer than the plain limit: hashed, never taken as another's.
    expect(counterKey(counterKey(long))).not.toBe(counterKey(long))
    expect(`pgs_ct_declinesPerEmail:${counterKey(long)}`.length).toBeLessThanOrEqual(255)
  })

  it("says a block starts only on the request that starts it, not on those refused while it lasts", async () => {
    const counters = memoryCounters()
    // A new cart each time: only the address's count of new sessions meets its limit.
    const bot = (i: number) => ({ address: "198.51.100.9", cart: `cart_bot_${i}` })
    for (let i = 0; i < 10; i++) expect(await admitAttempt(counters, bot(i), true)).toBeNull()
    expect(await admitAttempt(counters, bot(10), true)).toMatchObject({ counter: "sessionsPerAddress", startsBlock: true })
    for (let i = 11; i < 14; i++) expect((await admitAttempt(counters, bot(i), true))?.startsBlock).toBeUndefined()
  })
})
