import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"

/** embedded-fields.js, its card-field iframe and the client-key API behind it. */
export function registerEmbeddedRoutes(_router: Router, _ctx: SandboxContext): void {}
