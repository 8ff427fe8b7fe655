/** Alternative payments: payment, payout, hosted payment page, and the provider and hosted pages they send people to. */
import { FINAL_STATUSES } from "../schemas"
import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"
import { registerHostedPages } from "../pages/hosted"
import { registerProviderPages } from "../pages/provider"
import { createHostedPage } from "./hosted-payment-page"
import { createPayment } from "./payment"
import { createPayout } from "./payout"
import { providerFlowOf } from "./provider-flow"

export function registerApmRoutes(router: Router, ctx: SandboxContext): void {
  router.add("POST", "/api/transactions/payment", (req) => createPayment(ctx, req), "api")
  router.add("POST", "/api/transactions/payout", (req) => createPayout(ctx, req), "api")
  router.add("POST", "/api/hosted-payment-page", (req) => createHostedPage(ctx, req), "api")
  registerProviderPages(router, ctx)
  registerHostedPages(router, ctx)
  // Once a redirect transaction is final (page, control or anything else), there is nowhere left to send the customer.
  ctx.store.onStatusChange(({ transaction }) => {
    if (FINAL_STATUSES.has(transaction.status) && providerFlowOf(transaction)) transaction.redirect_url = null
  })
}
