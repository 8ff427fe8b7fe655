/** GET /api/transactions/{id}/status: `{found, transaction}` for any of the merchant's transactions, children included. */
import type { StatusResponse } from "../schemas"
import { requireMerchant } from "../core/auth"
import type { SandboxContext } from "../core/context"
import { json, type Reply, type SandboxRequest } from "../core/http"
import { transactionView } from "../core/views"

export async function transactionStatus(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const tx = ctx.store.getTransaction(merchant.merchant_id, req.params.id)
  // Assumption: "nothing found" is an answer, not an error: HTTP 200 with found false (another merchant's id alike).
  const body: StatusResponse = tx ? { found: true, transaction: transactionView(tx) } : { found: false, transaction: null }
  return json(200, body)
}
