/**
 * The card-testing guard in front of every store route that can reach the gateway (middleware-routes.ts lists
 * them): a client with too many declines or attempts gets 429, Retry-After and words the widget shows, before any
 * gateway call. While the shop admin's switch is on, new card sessions are for logged-in customers only (403).
 * The client address that asked for a payment collection's sessions is kept, so the gateway's declines for them
 * (webhooks) count against it.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PGS_MODULE } from "../../modules/pgs"
import { FAMILIES } from "../../payments/method-families"
import type PgsModuleService from "../../modules/pgs/service"
import { admitPaymentRequest, refusalMinutes, refusalWords, type GuardDeps } from "../../payments/card-testing/guard"
import { rememberClient } from "../../payments/card-testing/client-record"
import { currentLockdown } from "../../payments/card-testing/lockdown"
import type { Refusal } from "../../payments/card-testing/rules"
import { guardAddress } from "./address"
import { setPageHeaders } from "../page-headers"
import { whoOfCart, whoOfCollection, whoOfSession, type Who } from "../../payments/card-testing/who"

/** What the path's :id names ("address": a route without one, counted by the client's address alone). */
export type GuardedId = "cart" | "collection" | "session" | "address"
export type GuardRule = { id: GuardedId; newSession: boolean; /** Card sessions for logged-in customers only while the switch is on. */ lockdown?: boolean; page?: boolean }

/**
 * The providers the switch closes to anonymous shoppers: the card family and the hosted card page, under any id a
 * store registers them by (Medusa names them pp_{identifier}_{id}). Alternative methods stay open.
 */
const CLOSED_IDENTIFIERS = ["pgs", FAMILIES.hosted.identifier]
const takesCards = (providerId: unknown) => typeof providerId === "string" && CLOSED_IDENTIFIERS.some((identifier) => providerId.startsWith(`pp_${identifier}_`))

export const LOCKDOWN_WORDS = "Card payments are open to signed-in customers only for now. Sign in to pay by card, or choose another payment method."

export function guardDeps(scope: MedusaContainer): GuardDeps {
  const settings = scope.resolve<PgsModuleService>(PGS_MODULE).cardTestingSettings()
  return { ...settings, logger: scope.resolve("logger") }
}

const WHO: Record<GuardedId, (scope: MedusaContainer, id: string) => Promise<Who>> = {
  cart: whoOfCart,
  collection: whoOfCollection,
  session: whoOfSession,
  address: async () => ({ cart: null, collection: null, email: null, session: null }),
}

function refuse(res: MedusaResponse, rule: GuardRule, refusal: Refusal) {
  const words = refusalWords(refusal)
  res.setHeader("retry-after", String(refusal.retryAfterSeconds))
  res.setHeader("cache-control", "no-store")
  if (rule.page) {
    // A page's headers as every page of the plugin sends them (not framed, no Referer with a pay link's token), as text.
    setPageHeaders(res)
    return res.status(429).type("text/plain; charset=utf-8").send(words)
  }
  // `minutes` as a string: the widget puts it into its own words, in the shopper's language.
  return res.status(429).json({ type: "too_many_payment_attempts", message: words, retry_after: refusal.retryAfterSeconds, minutes: String(refusalMinutes(refusal)) })
}

const loggedIn = (req: MedusaRequest) => !!(req as MedusaRequest & { auth_context?: { actor_id?: string } }).auth_context?.actor_id

export function cardTestingGuard(rule: GuardRule) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      const deps = guardDeps(req.scope)
      if (!deps.options.enabled && !rule.lockdown) return next()
      const id = String(req.params.id ?? "")
      if (rule.lockdown && takesCards((req.body as { provider_id?: unknown } | undefined)?.provider_id) && !loggedIn(req)) {
        const lockdown = await currentLockdown(deps.knex)
        if (lockdown) return res.status(403).json({ type: "not_allowed", code: "cards_for_customers_only", message: LOCKDOWN_WORDS })
      }
      const who = await WHO[rule.id](req.scope, id)
      const address = guardAddress(req)
      const refusal = await admitPaymentRequest(deps, { ...who, address }, { newSession: rule.newSession })
      if (refusal) return refuse(res, rule, refusal)
      if (who.collection) await rememberClient(deps.knex, who.collection, address)
      return next()
    } catch (error) {
      // The guard never turns a payment into a 5xx: reading who asks failed, so the route answers as it would.
      req.scope.resolve<{ warn(message: string): void }>("logger").warn(`[pgs] card-testing guard skipped: ${(error as Error).message}`)
      return next()
    }
  }
}
