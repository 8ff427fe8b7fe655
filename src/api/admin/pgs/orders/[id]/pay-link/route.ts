/**
 * GET /admin/pgs/orders/:id/pay-link — what the order still owes (its payment collections that are not paid,
 * not canceled and not a cart's), and the customer's saved cards the shop may charge (saved with consent to later
 * charges by the shop), for the order widget.
 * POST /admin/pgs/orders/:id/pay-link {payment_collection_id} — issues a link to pay one of them, valid for the
 * option payLinkValidDays from now (a new link each time; earlier links keep their own expiry).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { payLinkUrl } from "../../../../../../payments/pay-link"
import type PgsModuleService from "../../../../../../modules/pgs/service"
import { PGS_MODULE } from "../../../../../../modules/pgs"
import { owedCollectionsOfOrder } from "../../../../../../workflows/pay-link/owed-collection"
import type { IssuePayLinkBody } from "./validators"

const DAY_MS = 24 * 60 * 60 * 1000

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const owed = await owedCollectionsOfOrder(req.scope, req.params.id)
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const { validDays } = pgs.payLinkSettings()
  const customerId = owed[0]?.order?.customer_id
  const cards = customerId ? (await pgs.listPgsSavedCards({ customer_id: customerId, status: "ACTIVE" })).filter((c) => c.merchant_consent_at) : []
  res.json({
    // Exact decimal strings (what is still owed), never floats.
    owed: owed.map((c) => ({ payment_collection_id: c.id, amount: c.owed, currency_code: c.currency_code })),
    valid_days: validDays,
    chargeable_cards: cards.map((c) => ({ id: c.id, brand: c.brand, last_4: c.last_4, exp_month: c.exp_month, exp_year: c.exp_year })),
  })
}

export async function POST(req: AuthenticatedMedusaRequest<IssuePayLinkBody>, res: MedusaResponse) {
  const { payment_collection_id } = req.validatedBody
  const owed = (await owedCollectionsOfOrder(req.scope, req.params.id)).find((c) => c.id === payment_collection_id)
  if (!owed) {
    res.status(404).json({ type: "not_found", message: `Order ${req.params.id} owes nothing on payment collection ${payment_collection_id}: it is paid, canceled or not this order's.` })
    return
  }
  const settings = req.scope.resolve<PgsModuleService>(PGS_MODULE).payLinkSettings()
  const expiresAt = Date.now() + settings.validDays * DAY_MS
  res.json({
    url: payLinkUrl(settings.backendUrl, settings.secret, owed.id, expiresAt),
    expires_at: new Date(Math.floor(expiresAt / 1000) * 1000).toISOString(),
    amount: owed.owed,
    currency_code: owed.currency_code,
  })
}
