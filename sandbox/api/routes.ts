import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"
import { createCustomer } from "./customers"
import { manage } from "./manage"
import { deletePaymentMethod } from "./payment-methods"
import { createSession } from "./sessions"
import { transactionStatus } from "./status"

/** Merchant API outside authorize: sessions, customers, payment-methods, manage, status. */
export function registerMerchantApiRoutes(router: Router, ctx: SandboxContext): void {
  router.add("POST", "/api/sessions", (req) => createSession(ctx, req), "api")
  router.add("POST", "/api/customers", (req) => createCustomer(ctx, req), "api")
  router.add("DELETE", "/api/payment-methods/:payment_method_id", (req) => deletePaymentMethod(ctx, req), "api")
  router.add("POST", "/api/transactions/manage", (req) => manage(ctx, req), "api")
  router.add("GET", "/api/transactions/:id/status", (req) => transactionStatus(ctx, req), "api")
}
