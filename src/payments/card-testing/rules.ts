/**
 * The counting rules. A client is who asks (its address), for what (cart or payment collection, payment session)
 * and as whom (email, or the logged-in customer). Before a request that can reach the gateway: refused when any of
 * its keys has too many declines, then its attempt is counted per address, cart and session (and, for a new gateway
 * session, per cart and per address). A decline the gateway reports is counted against the client that asked for the session, and
 * against the card; a card declined too often blocks whoever sent it.
 */
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible"
import { counterKey, type Counters, type CounterName } from "./counters"

export type CardTestingClient = {
  address?: string | null
  /** The cart, or the payment collection when there is no cart (a pay link, an order's collection). */
  cart?: string | null
  /** The logged-in customer's id, else the cart's email (lower-cased here). */
  email?: string | null
  session?: string | null
}

/** `startsBlock`: this request took a key over its limit (the requests refused after it while blocked do not). */
export type Refusal = { retryAfterSeconds: number; counter: CounterName; startsBlock?: true }

type Keyed = [CounterName, string]

/** The keys a client has, each as its counter stores it. */
const keyed = (keys: ReadonlyArray<readonly [CounterName, string | null | undefined]>): Keyed[] => keys.flatMap(([name, key]): Keyed[] => (key ? [[name, counterKey(key)]] : []))

const declineKeys = (c: CardTestingClient): Keyed[] =>
  keyed([
    ["declinesPerAddress", c.address],
    ["declinesPerCart", c.cart],
    ["declinesPerEmail", c.email?.toLowerCase()],
  ])

const attemptKeys = (c: CardTestingClient, newSession: boolean): Keyed[] =>
  keyed([
    ["attemptsPerAddress", c.address],
    ["attemptsPerCart", c.cart],
    ["attemptsPerSession", c.session],
    ...(newSession ? ([["sessionsPerCart", c.cart], ["sessionsPerAddress", c.address]] as const) : []),
  ])

/** A key at its limit: the library's answer holds more points than the limiter allows. */
function refusalOf(counter: CounterName, limiter: RateLimiterAbstract, res: RateLimiterRes | null): Refusal | null {
  if (!res || res.consumedPoints <= limiter.points) return null
  return { counter, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) }
}

/** The refusal that lasts longest, or null. */
const longest = (refusals: Array<Refusal | null>): Refusal | null =>
  refusals.reduce<Refusal | null>((a, b) => (!b ? a : !a || b.retryAfterSeconds > a.retryAfterSeconds ? b : a), null)

/** Counts one point; the library rejects with its answer once the key is over (or blocked). */
async function count(counters: Counters, [name, key]: Keyed): Promise<Refusal | null> {
  const limiter = counters[name]
  try {
    await limiter.consume(key)
    return null
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection
    const refusal = refusalOf(name, limiter, rejection) ?? { counter: name, retryAfterSeconds: 1 }
    // One point a request: the one that reaches limit + 1 is the one the library starts the block with.
    return rejection.consumedPoints === limiter.points + 1 ? { ...refusal, startsBlock: true } : refusal
  }
}

/**
 * Before a request that can reach the gateway: null when it may go on (its attempt counted), else why not and for
 * how long. `newSession`: the request opens a gateway session.
 */
export async function admitAttempt(counters: Counters, client: CardTestingClient, newSession: boolean): Promise<Refusal | null> {
  const declined = await Promise.all(declineKeys(client).map(async ([name, key]) => refusalOf(name, counters[name], await counters[name].get(key))))
  const blocked = longest(declined)
  if (blocked) return blocked
  return worst(await Promise.all(attemptKeys(client, newSession).map((k) => count(counters, k))))
}

/** The longest refusal, saying a block starts when any of them starts one. */
function worst(refusals: Array<Refusal | null>): Refusal | null {
  const refusal = longest(refusals)
  return refusal && refusals.some((r) => r?.startsBlock) ? { ...refusal, startsBlock: true } : refusal
}

/**
 * A decline the gateway reported for a session this client asked for (`card`: what the gateway tells of the card).
 * Returns the refusal the client now meets, if any.
 */
export async function countDecline(counters: Counters, client: CardTestingClient, card: string | null): Promise<Refusal | null> {
  const refusals = await Promise.all(declineKeys(client).map((k) => count(counters, k)))
  if (card) {
    const cardRefusal = await count(counters, ["declinesPerCard", counterKey(card)])
    if (cardRefusal) {
      // One card declined again and again: whoever keeps sending it is blocked, whatever its other counts.
      await Promise.all(declineKeys(client).map(([name, key]) => counters[name].block(key, counters[name].blockDuration)))
      refusals.push(cardRefusal)
    }
  }
  return worst(refusals)
}

/** What the gateway tells of a card in a decline: its hash (a card id), else masked number and expiry. */
export function cardKey(payment: { payment_method_hash?: string | null; payment_method_masked?: string | null; payment_method_expiry?: string | null }): string | null {
  if (payment.payment_method_hash) return `hash:${payment.payment_method_hash}`
  if (payment.payment_method_masked) return `masked:${payment.payment_method_masked}:${payment.payment_method_expiry ?? ""}`
  return null
}
