/**
 * GET /pgs/pay/:id?t=… — the pay link a shop admin sends (no storefront page, no publishable key): sends the
 * shopper to the gateway's hosted page for exactly what the order's payment collection owes, or says why not.
 * An unknown id, a malformed one and a bad signature look alike (404); a paid collection says "paid" (a second
 * visit after payment); a canceled order or collection cannot be paid (410). Never a 5xx: a failure is a page
 * asking to come back later.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { checkPayLink } from "../../../../payments/pay-link"
import type PgsModuleService from "../../../../modules/pgs/service"
import { PGS_MODULE } from "../../../../modules/pgs"
import { openPayLink } from "../../../../workflows/pay-link/open"
import { sendPayPage } from "../../pay-page"

/** Medusa's payment collection ids: "pay_col_" and a ULID. */
const COLLECTION_ID = /^pay_col_[0-9A-HJKMNP-TV-Z]{26}$/

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const id = req.params.id
  const token = typeof req.query.t === "string" ? req.query.t : undefined
  try {
    if (!COLLECTION_ID.test(id)) return sendPayPage(req, res, "unknown")
    const settings = req.scope.resolve<PgsModuleService>(PGS_MODULE).payLinkSettings()
    const check = checkPayLink(settings.secret, id, token)
    if (check === "invalid") return sendPayPage(req, res, "unknown")
    if (check === "expired") return sendPayPage(req, res, "expired")
    const opening = await openPayLink(req.scope, id)
    switch (opening.kind) {
      case "redirect":
        res.setHeader("cache-control", "no-store")
        // The link's token must not reach the gateway's page as a Referer.
        res.setHeader("referrer-policy", "no-referrer")
        return res.redirect(303, opening.url)
      case "paid":
        return sendPayPage(req, res, "paid")
      case "processing":
        return sendPayPage(req, res, "processing")
      case "canceled":
        return sendPayPage(req, res, "closed")
      case "unknown":
        return sendPayPage(req, res, "unknown")
      case "failed":
        return sendPayPage(req, res, "unavailable")
    }
  } catch (error) {
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).error(`[pgs] pay link ${id.slice(0, 40)} could not be opened: ${(error as Error)?.message ?? String(error)}`)
    return sendPayPage(req, res, "unavailable")
  }
}
