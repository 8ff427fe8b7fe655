/**
 * The card-testing guard as the store's entry points and the webhook handler use it: admit a request that can reach
 * the gateway (or say why not and for how long), and count a decline the gateway reported. The counters' store
 * failing never stops a payment: the guard then lets the request through and logs why.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { CardTestingOptions } from "../../modules/pgs/card-testing-options"
import { openCardTestingItem, recordGuardEvent } from "./alert"
import { countersFor } from "./counters"
import { admitAttempt, countDecline, type CardTestingClient, type Refusal } from "./rules"

export type GuardDeps = { options: CardTestingOptions; knex: Knex; redisUrl: string | null; logger: { warn(message: string): void } }
export type GuardClient = CardTestingClient & { collection?: string | null }

const counters = (deps: GuardDeps) => countersFor({ knex: deps.knex, redisUrl: deps.redisUrl }, deps.options)

/** Whole minutes until the client may try again (at least 1): what the shopper is told to wait. */
export const refusalMinutes = (refusal: Refusal) => Math.max(1, Math.ceil(refusal.retryAfterSeconds / 60))

/** What the shopper reads in the store's answer (the widget tells the same in the shopper's language, from `minutes`). */
export function refusalWords(refusal: Refusal): string {
  const minutes = refusalMinutes(refusal)
  return `Too many payment attempts. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`
}

async function tellAdmin(deps: GuardDeps, client: GuardClient): Promise<void> {
  try {
    await recordGuardEvent(deps.knex, "refused", client)
    await openCardTestingItem(deps.knex)
  } catch (error) {
    deps.logger.warn(`[pgs] card-testing guard: a refused client could not be listed for the admin: ${(error as Error).message}`)
  }
}

/** Null: go on (the attempt is counted). A refusal: answer 429 with its Retry-After and words. */
export async function admitPaymentRequest(deps: GuardDeps, client: GuardClient, how: { newSession: boolean }): Promise<Refusal | null> {
  if (!deps.options.enabled) return null
  let refusal: Refusal | null
  try {
    refusal = await admitAttempt(counters(deps), client, how.newSession)
  } catch (error) {
    deps.logger.warn(`[pgs] card-testing guard: counters unavailable, request let through: ${(error as Error).message}`)
    return null
  }
  // Recorded when a block starts, not for each request refused while it lasts: a flood costs no more writes than
  // the counting of the requests it sends.
  if (refusal?.startsBlock) await tellAdmin(deps, client)
  return refusal
}

/**
 * A decline the gateway reported for a session this client asked for; `card` as rules.cardKey names it. Counted once
 * per gateway event (`webhookEventId`, the event log's id), however often that event is processed.
 */
export async function countGatewayDecline(deps: GuardDeps, client: GuardClient, card: string | null, webhookEventId: string): Promise<void> {
  if (!deps.options.enabled) return
  try {
    if (!(await recordGuardEvent(deps.knex, "decline", client, webhookEventId))) return
    const refusal = await countDecline(counters(deps), client, card)
    if (refusal?.startsBlock) await tellAdmin(deps, client)
  } catch (error) {
    deps.logger.warn(`[pgs] card-testing guard: a decline could not be counted: ${(error as Error).message}`)
  }
}
