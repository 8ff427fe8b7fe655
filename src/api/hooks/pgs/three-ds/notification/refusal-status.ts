/** The status the 3-D Secure notification page answers for an error: a 4xx only for what the caller sent. */
import { MedusaError } from "@medusajs/framework/utils"
import { GATEWAY_UNAVAILABLE } from "../../../../../payments/gateway-unavailable"

/**
 * Unknown session 404; not waiting for this cres 409; a malformed cres or another provider's session 400; the
 * gateway down or refusing the store 503. Anything else (the database, a seal that does not open, a bug) is ours: 500.
 */
export function refusalStatus(error: unknown): number {
  if (!(error instanceof MedusaError)) return 500
  if (error.code === GATEWAY_UNAVAILABLE) return 503
  if (error.type === MedusaError.Types.NOT_FOUND) return 404
  if (error.type === MedusaError.Types.CONFLICT) return 409
  if (error.type === MedusaError.Types.DB_ERROR || error.type === MedusaError.Types.UNEXPECTED_STATE) return 500
  return 400
}
