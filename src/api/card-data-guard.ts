/**
 * No card data on the store's server unless the store is in PCI DSS scope SAQ D: a card number, a security code
 * or a network token in what a storefront sends to a session route (ours, or Medusa's
 * `/store/payment-collections/:id/payment-sessions`, on any path spelling) is answered 400 naming the field
 * (payments/card-shaped.ts) before Medusa writes anything. Medusa stores a new session's raw `data` before the
 * provider runs, and a failed insert is logged with the whole statement: the provider's own refusal comes too late.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PGS_MODULE } from "../modules/pgs"
import { parseOptions } from "../modules/pgs/options"
import type PgsModuleService from "../modules/pgs/service"
import { cardShapedFields, type CardDataRules } from "../payments/card-shaped"
import { invalidData } from "./admin/pgs/validate"
import { MEDUSA_SESSION_ROUTE } from "./hostile-input"
import { onRoutes, requestRoutePath, type RoutePattern } from "./route-path"

/** Where a storefront (or a pay link's shopper) sends data: our store routes, the pay link's pages, Medusa's session route, and the completion (its pgs_transaction). */
const STOREFRONT_ROUTES: RoutePattern[] = [{ prefix: "/store/pgs" }, { prefix: "/pgs/pay" }, { prefix: "/pgs/pay-result" }, MEDUSA_SESSION_ROUTE, { route: "/store/carts/:id/complete" }]

/** Nothing is let through when the options cannot be read: such a store does not start its providers anyway. */
const STRICTEST: CardDataRules = { rawCards: false, networkTokens: false }
const rulesByOptions = new WeakMap<object, CardDataRules>()

function cardDataRules(req: MedusaRequest): CardDataRules {
  const raw = req.scope.resolve<PgsModuleService>(PGS_MODULE).rawOptions
  if (!raw || typeof raw !== "object") return STRICTEST
  let rules = rulesByOptions.get(raw)
  if (!rules) {
    try {
      const options = parseOptions(raw)
      rules = { rawCards: options.rawCardDataPciScope === "SAQ_D", networkTokens: options.networkTokensFromStorefront }
    } catch {
      rules = STRICTEST
    }
    rulesByOptions.set(raw, rules)
  }
  return rules
}

export function refuseCardData(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (req.body === undefined || req.body === null || !onRoutes(requestRoutePath(req), STOREFRONT_ROUTES)) return next()
  const problems = cardShapedFields(req.body, cardDataRules(req))
  if (problems.length) {
    res.status(400).json(invalidData(problems))
    return
  }
  next()
}
