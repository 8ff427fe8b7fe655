import { pgsOptionsFromEnv } from "../../../config"
import { parseOptions } from "../../../modules/pgs/options"
import { COMPLETE_ENV as BASE } from "../../../modules/pgs/__tests__/complete-env"

describe("card-testing options", () => {
  it("defaults to limits a shopper never meets when no PGS_CARD_TESTING_* is set", () => {
    expect(parseOptions(pgsOptionsFromEnv(BASE)).cardTesting).toEqual({
      enabled: true,
      declinesPerAddress: 5,
      declinesPerCart: 4,
      declinesPerEmail: 4,
      declinesPerCard: 3,
      declineWindowMinutes: 60,
      attemptsPerAddress: 60,
      attemptsPerCart: 30,
      attemptsPerSession: 30,
      sessionsPerCart: 10,
      sessionsPerAddress: 10,
      attemptWindowMinutes: 10,
      blockMinutes: 20,
    })
  })

  it("reads each threshold from its variable, and the switch off", () => {
    const options = parseOptions(pgsOptionsFromEnv({ ...BASE, PGS_CARD_TESTING_GUARD: "false", PGS_CARD_TESTING_DECLINES_PER_CART: "6", PGS_CARD_TESTING_BLOCK_MINUTES: "7.5" }))
    expect(options.cardTesting).toMatchObject({ enabled: false, declinesPerCart: 6, blockMinutes: 7.5, declinesPerEmail: 4 })
  })

  it("stops the store at boot naming the option and its variables when a threshold is not a number", () => {
    expect(() => parseOptions(pgsOptionsFromEnv({ ...BASE, PGS_CARD_TESTING_SESSIONS_PER_CART: "lots" }))).toThrow(
      /- cardTesting must be a whole number of sessions: leave .*PGS_CARD_TESTING_SESSIONS_PER_CART.* unset/,
    )
    expect(() => parseOptions({ ...pgsOptionsFromEnv(BASE), cardTesting: { blockMinutes: 0 } })).toThrow(/cardTesting must be more than 0 minutes/)
    expect(() => parseOptions({ ...pgsOptionsFromEnv(BASE), cardTesting: { perHour: 3 } })).toThrow(/cardTesting/)
  })
})
