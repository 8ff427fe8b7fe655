import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"

/** Alternative payments: payment, payout, hosted payment page, provider pages. */
export function registerApmRoutes(_router: Router, _ctx: SandboxContext): void {}
