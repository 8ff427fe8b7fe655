/** Redirect methods through authorize (provider-instant, voucher-redirect-*, wallet redirects). Owned by apm/. */
import type { AuthorizeFamily } from "../api/authorize"
import { resultResponse } from "../core/views"

export const redirectFamily: AuthorizeFamily = {
  start() {
    throw new Error("not implemented yet")
  },
  replay: (_ctx, tx) => resultResponse(tx),
}
