/**
 * POST /store/carts/:id/complete { pgs_transaction: { payment_session_id, transaction_id } }: the widget's Pay in
 * one store call after the card fields paid. Before Medusa's own completion runs, the transaction is attached to
 * the cart's PGS session exactly as POST /store/pgs/payment-sessions/:id/transaction does (the provider checks it
 * with the gateway first); then Medusa completes the cart, authorizing from that transaction. Without the key the
 * completion is Medusa's alone. Repeating it is safe: the same transaction attaches again (the gateway is asked
 * again), and a session already paid is left as it is, so a repeated completion answers the order.
 * A declined transaction is answered 200 { type: "cart", cart, error } as Medusa answers a refused authorization.
 * A completed cart attaches nothing: Medusa answers its order, and its collection is the order's.
 * 400 bad body; 404 a session that is not this cart's; 409 with code "pgs_transaction_conflict" the transaction is
 * not this session's (or another is attached); 503 gateway away.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { defaultStoreCartFields } from "@medusajs/medusa/api/store/carts/query-config"
import { refetchCart } from "@medusajs/medusa/api/store/carts/helpers"
import { looseQuery } from "../../../../lib/loose-query"
import { clientAddress } from "../../../client-address"
import { answeredSessionError, runSessionRequest } from "./session-request"
import type { CompletionBody } from "./validators"

/** What the storefront reads of a session: not its `context` (the customer record and its account holder). */
const SESSION_FIELDS = ["id", "provider_id", "status", "amount", "currency_code", "data", "payment_collection_id", "created_at", "updated_at"]
/** A session Medusa already counts as paid: nothing is attached to it again. */
const PAID = new Set(["authorized", "captured"])
const FAILED = new Set(["error", "canceled"])
export const TRANSACTION_CONFLICT = "pgs_transaction_conflict"
const DECLINED = { type: "payment_authorization_error", name: "Error", message: "Payment authorization failed" }

/**
 * The cart as Medusa's refusal carries it (its default store cart fields), so a storefront re-rendering from the
 * refusal keeps its cart; the sessions with the fields above only.
 */
const CART_FIELDS = [
  ...defaultStoreCartFields.filter((f) => f !== "*payment_collection.payment_sessions"),
  ...SESSION_FIELDS.map((f) => `payment_collection.payment_sessions.${f}`),
]

/** Read as Medusa's completion route reads it (its refetchCart: a relation with no rows is an empty list, not left out). */
const cartOf = (req: MedusaRequest) => refetchCart(req.params.id, req.scope, CART_FIELDS)

export async function attachOnCompletion(req: MedusaRequest<CompletionBody>, res: MedusaResponse, next: MedusaNextFunction) {
  const named = req.validatedBody?.pgs_transaction
  if (!named) return next()
  try {
    const query = looseQuery(req.scope)
    const cart = (await query.graph({ entity: "cart", fields: ["id", "completed_at"], filters: { id: req.params.id } })).data[0] as { completed_at?: unknown } | undefined
    if (cart?.completed_at) return next()
    const { data } = await query.graph({ entity: "payment_session", fields: ["id", "status", "payment_collection_id"], filters: { id: named.payment_session_id } })
    const session = data[0] as { status: string; payment_collection_id: string } | undefined
    const links = session ? (await query.graph({ entity: "cart_payment_collection", fields: ["cart_id"], filters: { payment_collection_id: session.payment_collection_id } })).data : []
    if (!session || (links[0] as { cart_id?: string } | undefined)?.cart_id !== req.params.id)
      return void res.status(404).json({ type: "not_found", message: `Payment session ${named.payment_session_id} is not a payment session of cart ${req.params.id}` })
    if (!PAID.has(session.status)) {
      const attached = await runSessionRequest(req.scope, named.payment_session_id, { kind: "attach_transaction", transaction_id: named.transaction_id, customer_ip: clientAddress(req) })
      // A declined card: Medusa's completion would answer 400 "Payment sessions are required" for a cart whose only
      // session failed (FRAMEWORK-NOTES 26). Answered as Medusa answers a refused authorization instead: 200, the
      // cart (its session says why) and the error, so the storefront reads a decline, not a broken request.
      if (FAILED.has(attached.status)) return void res.status(200).json({ type: "cart", cart: await cartOf(req), error: DECLINED })
    }
  } catch (error) {
    // Named: Medusa answers "another completion is running" with a 409 too, which a storefront repeats; this one
    // (the transaction is not this session's, or another is attached) no repeat changes.
    if (!answeredSessionError(res, error, TRANSACTION_CONFLICT)) next(error)
    return
  }
  next()
}
