/**
 * The card-testing guard's thresholds (option `cardTesting`, each also a PGS_CARD_TESTING_* variable). Defaults a
 * shopper never meets — three declines and then a good card pass, a dozen tries at a new session pass — and a bot
 * meets after a handful. Counts are per window; a client that reaches a limit is refused for `blockMinutes`.
 */
import { z } from "zod"

const count = (what: string) => z.int({ error: `must be a whole number of ${what}` }).min(1, { error: `must be at least 1 ${what}` })
const minutes = z.number({ error: "must be a number of minutes" }).positive({ error: "must be more than 0 minutes" })

export const cardTestingOptionsSchema = z
  .strictObject(
    {
      /** false: nothing is counted or refused (a store with its own guard in front). */
      enabled: z.boolean({ error: "must be true or false" }).default(true),
      /** Declines the gateway reports, per client address, in `declineWindowMinutes`; at this many it is refused. */
      declinesPerAddress: count("declines").default(5),
      /** … per cart (or payment collection), per email or customer. */
      declinesPerCart: count("declines").default(4),
      declinesPerEmail: count("declines").default(4),
      /** … per card (the gateway's hash of it, or its masked number and expiry), counted against whoever sent it. */
      declinesPerCard: count("declines").default(3),
      declineWindowMinutes: minutes.default(60),
      /** Requests that can reach the gateway (new sessions, completions, 3-D Secure steps, pay link), per address: this many pass in a window. */
      attemptsPerAddress: count("attempts").default(60),
      /** … per cart or payment collection, and per payment session. */
      attemptsPerCart: count("attempts").default(30),
      attemptsPerSession: count("attempts").default(30),
      /** New gateway sessions per cart (each embedded-fields session is a form a bot can post cards to). */
      sessionsPerCart: count("sessions").default(10),
      /** … and per address, across carts (a bot with many carts gets no more forms); as many as one cart may have, since a
       * shopper who is declined, or switches methods, gets a new session each time. */
      sessionsPerAddress: count("sessions").default(10),
      attemptWindowMinutes: minutes.default(10),
      /** How long a client over a limit is refused (Retry-After). */
      blockMinutes: minutes.default(20),
    },
    { error: "must be an object of card-testing thresholds (see README, Configuration)" },
  )
  .prefault({})

export type CardTestingOptions = z.infer<typeof cardTestingOptionsSchema>

/** Each threshold's variable (src/config.ts reads them into option `cardTesting`). */
export const CARD_TESTING_ENV: Record<keyof CardTestingOptions, string> = {
  enabled: "PGS_CARD_TESTING_GUARD",
  declinesPerAddress: "PGS_CARD_TESTING_DECLINES_PER_ADDRESS",
  declinesPerCart: "PGS_CARD_TESTING_DECLINES_PER_CART",
  declinesPerEmail: "PGS_CARD_TESTING_DECLINES_PER_EMAIL",
  declinesPerCard: "PGS_CARD_TESTING_DECLINES_PER_CARD",
  declineWindowMinutes: "PGS_CARD_TESTING_DECLINE_WINDOW_MINUTES",
  attemptsPerAddress: "PGS_CARD_TESTING_ATTEMPTS_PER_ADDRESS",
  attemptsPerCart: "PGS_CARD_TESTING_ATTEMPTS_PER_CART",
  attemptsPerSession: "PGS_CARD_TESTING_ATTEMPTS_PER_SESSION",
  sessionsPerCart: "PGS_CARD_TESTING_SESSIONS_PER_CART",
  sessionsPerAddress: "PGS_CARD_TESTING_SESSIONS_PER_ADDRESS",
  attemptWindowMinutes: "PGS_CARD_TESTING_ATTEMPT_WINDOW_MINUTES",
  blockMinutes: "PGS_CARD_TESTING_BLOCK_MINUTES",
}

/** The defaults, for a store whose options could not be read (the guard still runs). */
export const DEFAULT_CARD_TESTING: CardTestingOptions = cardTestingOptionsSchema.parse(undefined)

/** The PGS_CARD_TESTING_* variables that are set, as option `cardTesting` (numbers as numbers, NaN for the boot check to name). */
export function cardTestingFromEnv(env: Record<string, string | undefined>): Record<string, unknown> | undefined {
  const entries = Object.entries(CARD_TESTING_ENV).flatMap(([option, variable]): Array<[string, unknown]> => {
    const value = env[variable]
    if (value === undefined || value === "") return []
    if (option === "enabled") return [[option, value === "true" ? true : value === "false" ? false : value]]
    return [[option, Number(value)]]
  })
  return entries.length ? Object.fromEntries(entries) : undefined
}
