/**
 * GET /pgs/pay-result?pgs_session=…&pgs_outcome=… — where the gateway's hosted page sends the shopper back after a
 * pay link: paid, still confirming, not paid or failed. The outcome in the URL is only a hint (anyone can type
 * it): "paid" is said only when Medusa recorded the payment. On a "success" hint the page asks the gateway once
 * (applyCollectionPayment: the hosted page's transaction, applied once whether this or the webhook comes first),
 * so a lost webhook does not leave a paid customer waiting; otherwise it reloads until the webhook decided.
 * A GET changes no state (a link preview, a prefetch or a typed URL makes one): on a "cancel" hint it shows "Not paid"
 * with a Start over button, and only that button's POST (same URL) records the page that took no card as canceled,
 * so the link's next visit makes a new page (workflows/pay-link/shopper-canceled.ts).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { findPgsSession } from "../../../workflows/pgs-events/lookup"
import { owedCollectionsOfOrder, readOwedCollection } from "../../../workflows/pay-link/owed-collection"
import type { MedusaContainer } from "@medusajs/framework/types"
import { applyCollectionPayment } from "../../../workflows/order-payments/apply-collection-payment"
import { recordShopperCancel } from "../../../workflows/pay-link/shopper-canceled"
import { sendPayPage, type PageState } from "../pay-page"
import { findRetiredSession } from "../../../modules/pgs/retired-sessions"

const SESSION_ID = /^payses_[0-9A-HJKMNP-TV-Z]{26}$/

/**
 * A link's page whose session Medusa deleted meanwhile (not "Link not found"): replaced by a newer page while the
 * order still owes (the link pays it), or no longer needed (the order was marked as paid, or canceled); money the bank
 * approved on it goes back (late money). A session of no order (a cart's) stays unknown here.
 */
async function retiredPageState(scope: MedusaContainer, sessionId: string): Promise<PageState> {
  const retired = await findRetiredSession(scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), sessionId)
  if (!retired?.order_id) return "unknown"
  // A canceled order's collections owe nothing here (readOwedCollection).
  return (await owedCollectionsOfOrder(scope, retired.order_id)).length ? "replaced" : "settled"
}

export const GET = (req: MedusaRequest, res: MedusaResponse) => answerResult(req, res, false)

/** The "canceled" page's Start over button (a form post to the same URL). */
export const POST = (req: MedusaRequest, res: MedusaResponse) => answerResult(req, res, true)

/** A cancel hint on a page that took no card: the shopper may close it (POST), nothing else is decided yet. */
const cancelable = (session: { status: string; data: { transaction_id?: unknown } }) => session.status === "requires_more" && typeof session.data.transaction_id !== "string"

async function answerResult(req: MedusaRequest, res: MedusaResponse, startOver: boolean) {
  const sessionId = typeof req.query.pgs_session === "string" ? req.query.pgs_session : ""
  const hint = req.query.pgs_outcome
  try {
    if (!SESSION_ID.test(sessionId)) return sendPayPage(req, res, "unknown")
    let session = await findPgsSession(req.scope, sessionId)
    if (!session) return sendPayPage(req, res, await retiredPageState(req.scope, sessionId))
    if (session.data.return_to !== "pay_link") return sendPayPage(req, res, "unknown")
    if (hint === "cancel" && startOver) {
      const read = session
      // Not recorded here: the page still says "Not paid"; the next visit reuses the finished page until it is.
      session = await recordShopperCancel(req.scope, read).catch((error) => {
        req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`[pgs] pay result ${sessionId}: cancel not recorded: ${(error as Error)?.message ?? String(error)}`)
        return read
      })
    }
    if (hint === "success" && session.status === "requires_more") {
      const applied = await applyCollectionPayment(req.scope, { sessionId: session.id, collectionId: session.payment_collection_id }).catch((error) => {
        // Not decided here: the webhook (or reconciliation) still applies it; the page keeps "confirming".
        req.scope.resolve(ContainerRegistrationKeys.LOGGER).warn(`[pgs] pay result ${sessionId}: ${(error as Error)?.message ?? String(error)}`)
        return null
      })
      if (applied?.kind === "applied" || applied?.kind === "already_applied") return sendPayPage(req, res, "paid")
    }
    const owed = await readOwedCollection(req.scope, session.payment_collection_id)
    const state: PageState =
      owed === "paid"
        ? "paid"
        : owed === "canceled"
          ? "closed"
          : owed === "unknown"
            ? "unknown"
            : session.status === "error"
              ? "failed"
              : session.status === "canceled"
                ? "notPaid"
                : hint === "cancel"
                  ? cancelable(session)
                    ? "canceled"
                    : "notPaid"
                  : hint === "error"
                    ? "failed"
                    : "processing"
    const lang = typeof req.query.lang === "string" ? `&lang=${encodeURIComponent(req.query.lang)}` : ""
    return sendPayPage(req, res, state, { action: `/pgs/pay-result?pgs_session=${sessionId}&pgs_outcome=cancel${lang}` })
  } catch (error) {
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).error(`[pgs] pay result for ${sessionId.slice(0, 40)} could not be read: ${(error as Error)?.message ?? String(error)}`)
    return sendPayPage(req, res, "unavailable")
  }
}
