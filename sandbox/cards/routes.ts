import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"

/** Card endpoints: sessions, customers, payment-methods, manage, status, 3-D Secure, ACS and simulator pages. */
export function registerCardRoutes(_router: Router, _ctx: SandboxContext): void {}
