/**
 * GET /pgs/carts/:id/pay-check — what the storefront widget reads before a card is paid at the gateway (ahead of Pay,
 * as the card form turns complete, and at Pay when that read may be stale: storefront-widget/src/core/pay-check.ts):
 * whether another tab completed the cart meanwhile (then it shows that order), which card session the cart
 * holds now (another tab may have replaced it: a retired session can still be paid at the gateway) and the payer the
 * gateway is told (billing address, email). The fields Medusa's `GET /store/carts/:id` answers for them
 * (storefront-widget/src/core/cart.ts: `Cart`), the sessions without their `data`: `{ cart: { id, completed_at, email,
 * currency_code, total, billing_address, payment_collection: { payment_sessions: [{ id, provider_id, status,
 * amount }] } } }`.
 *
 * Outside /store so a browser sends it as a CORS "simple" request (a GET without custom headers or credentials):
 * no preflight, where every /store call from another origin costs one (the publishable key is a custom header, and
 * Medusa's /store CORS sends no Access-Control-Max-Age), a round trip on the Pay's critical path. No publishable key:
 * the cart id is the secret, as for Medusa's own cart route, which checks no owner either. Readable only from the
 * store's STORE_CORS origins (matched as Medusa's /store CORS matches them), never with credentials.
 * 200 { cart }; 400 a malformed id; 404 an unknown cart. Not kept by any cache.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { ConfigModule } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, parseCorsOrigins } from "@medusajs/framework/utils"
import { z } from "zod"
import { looseQuery } from "../../../../../lib/loose-query"
import { invalidData } from "../../../../admin/pgs/validate"

const cartId = z.string().regex(/^cart_[0-9A-Za-z]{1,64}$/, "must be a cart id such as cart_01J…")

/** Medusa's answer to CART_FIELDS ("*billing_address": all of the address), the sessions' `data` left out. */
const FIELDS = [
  "id",
  "completed_at",
  "email",
  "currency_code",
  "total",
  "billing_address.*",
  ...["id", "provider_id", "status", "amount"].map((field) => `payment_collection.payment_sessions.${field}`),
]

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  allowStoreOrigin(req, res)
  res.setHeader("cache-control", "no-store")
  const id = cartId.safeParse(req.params.id)
  if (!id.success) return void res.status(400).json(invalidData([{ field: "id", message: id.error.issues[0]!.message }]))
  const { data } = await looseQuery(req.scope).graph({ entity: "cart", fields: FIELDS, filters: { id: id.data } })
  if (!data[0]) return void res.status(404).json({ type: "not_found", message: `Cart with id '${id.data}' not found` })
  res.json({ cart: data[0] })
}

/**
 * Access-Control-Allow-Origin for an origin the store's STORE_CORS allows, decided as Medusa's /store CORS decides
 * (its parseCorsOrigins; the cors package's matching: a string is one exact origin, a `/regexp/` is tested; `*` is
 * a literal). Set on every answer, a 404 too, so the widget can tell an unknown cart from a missing route.
 */
function allowStoreOrigin(req: MedusaRequest, res: MedusaResponse) {
  res.vary("Origin")
  const origin = req.headers.origin
  if (!origin) return
  const storeCors = req.scope.resolve<ConfigModule>(ContainerRegistrationKeys.CONFIG_MODULE).projectConfig.http.storeCors
  if (parseCorsOrigins(storeCors).some((allowed) => (typeof allowed === "string" ? allowed === origin : allowed.test(origin)))) res.setHeader("access-control-allow-origin", origin)
}
