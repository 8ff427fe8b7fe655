/**
 * The guard's counters, shared by every process of a store: in Redis when the store has it (Medusa's projectConfig
 * redisUrl, REDIS_URL in a store's medusa-config), else in the store's PostgreSQL through Medusa's own connection
 * (table pgs_card_testing_counter, made by the module's migration). rate-limiter-flexible keeps them: each counter
 * is a window that starts at a key's first count and a block that a key over its limit gets.
 */
import { createHash } from "node:crypto"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type Redis from "ioredis"
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterAbstract } from "rate-limiter-flexible"
import type { CardTestingOptions } from "../../modules/pgs/card-testing-options"

export const COUNTER_TABLE = "pgs_card_testing_counter"

/** What is counted: declines (the gateway's, per client) and requests that can reach the gateway. */
export const COUNTERS = ["declinesPerAddress", "declinesPerCart", "declinesPerEmail", "declinesPerCard", "attemptsPerAddress", "attemptsPerCart", "attemptsPerSession", "sessionsPerCart", "sessionsPerAddress"] as const
export type CounterName = (typeof COUNTERS)[number]
export type Counters = Record<CounterName, RateLimiterAbstract>

/** Longer keys (a long email, a made-up id) are counted by their SHA-256: the table's key column is varchar(255). */
const MAX_PLAIN_KEY = 64

/** The key a counter stores. A hashed key is longer than any plain one, so the two can never meet. */
export const counterKey = (key: string): string => (key.length <= MAX_PLAIN_KEY ? key : `sha256:${createHash("sha256").update(key).digest("hex")}`)

type LimiterOptions = { keyPrefix: string; points: number; duration: number; blockDuration: number }

/**
 * Each counter's limiter. Attempts: the limit is how many pass in a window; the one after is rejected and starts the
 * block. Declines: a client is refused once its declines reach the limit, so that limiter allows one point fewer (the
 * decline that reaches it is the one the library rejects, and that starts the block).
 */
export function limiterOptions(options: CardTestingOptions): Record<CounterName, LimiterOptions> {
  const block = Math.round(options.blockMinutes * 60)
  const of = (name: CounterName, windowMinutes: number): LimiterOptions => ({
    keyPrefix: `pgs_ct_${name}`,
    points: name.startsWith("declines") ? options[name] - 1 : options[name],
    duration: Math.max(1, Math.round(windowMinutes * 60)),
    blockDuration: block,
  })
  const declines = options.declineWindowMinutes
  const attempts = options.attemptWindowMinutes
  return {
    declinesPerAddress: of("declinesPerAddress", declines),
    declinesPerCart: of("declinesPerCart", declines),
    declinesPerEmail: of("declinesPerEmail", declines),
    declinesPerCard: of("declinesPerCard", declines),
    attemptsPerAddress: of("attemptsPerAddress", attempts),
    attemptsPerCart: of("attemptsPerCart", attempts),
    attemptsPerSession: of("attemptsPerSession", attempts),
    sessionsPerCart: of("sessionsPerCart", attempts),
    sessionsPerAddress: of("sessionsPerAddress", attempts),
  }
}

export type CounterStore = { knex: Knex; redisUrl?: string | null }

const built = new WeakMap<Knex, { key: string; counters: Counters }>()
const redisClients = new Map<string, Redis>()

/** The store's counters (one set per connection and settings, made on first use). */
export function countersFor(store: CounterStore, options: CardTestingOptions): Counters {
  const key = JSON.stringify([store.redisUrl ?? null, limiterOptions(options)])
  const cached = built.get(store.knex)
  if (cached && cached.key === key) return cached.counters
  const make = store.redisUrl ? redisLimiter(store.redisUrl) : postgresLimiter(store.knex)
  const counters = Object.fromEntries(Object.entries(limiterOptions(options)).map(([name, o]) => [name, make(o)])) as unknown as Counters
  built.set(store.knex, { key, counters })
  return counters
}

function postgresLimiter(knex: Knex) {
  // tableCreated: the migration made the table; the library would otherwise race to create it from each limiter.
  // The table is shared, so one limiter's timer deletes every expired row (every 5 minutes, unref'd).
  let first = true
  return (o: LimiterOptions) => {
    const clearExpiredByTimeout = first
    first = false
    return new RateLimiterPostgres({ ...o, storeClient: knex, storeType: "knex", tableName: COUNTER_TABLE, tableCreated: true, clearExpiredByTimeout })
  }
}

function redisLimiter(url: string) {
  let client = redisClients.get(url)
  if (!client) {
    // Loaded only for a store on Redis (Medusa's Redis modules bring ioredis with them).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const IORedis = require("ioredis") as typeof import("ioredis").default
    redisClients.set(url, (client = new IORedis(url, { maxRetriesPerRequest: 2 })))
  }
  return (o: LimiterOptions) => new RateLimiterRedis({ ...o, storeClient: client })
}
