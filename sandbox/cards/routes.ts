import type { SandboxContext } from "../core/context"
import type { Router } from "../core/http"
import { registerThreeDsApi } from "../api/three-ds"
import { registerAcsPages } from "../pages/acs"
import { registerSimulatorPages } from "../pages/simulator"

/** Card endpoints: the 3-D Secure API calls, the sandbox ACS and notification pages, the simulator pages. */
export function registerCardRoutes(router: Router, ctx: SandboxContext): void {
  registerThreeDsApi(router, ctx)
  registerAcsPages(router, ctx)
  registerSimulatorPages(router, ctx)
}
