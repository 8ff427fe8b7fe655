/**
 * POST /store/pgs/payment-sessions/:id/transaction { transaction_id }
 * The storefront reports the transaction its Embedded Fields payment produced. The provider accepts it only if
 * the gateway confirms it carries this session's reference, terminal, amount and currency.
 * 200 { payment_session }; 400 not a PGS session or bad body; 404 unknown session or transaction; 409 mismatch.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../../client-address"
import { respondWithSession } from "../../session-request"
import type { AttachTransactionBody } from "../../validators"

export async function POST(req: MedusaRequest<AttachTransactionBody>, res: MedusaResponse) {
  await respondWithSession(req, res, {
    kind: "attach_transaction",
    transaction_id: req.validatedBody.transaction_id,
    customer_ip: clientAddress(req),
  })
}
