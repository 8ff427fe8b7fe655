import type { SandboxContext } from "../core/context"
import { html, type Router } from "../core/http"

/** Pages for people: the sandbox home (recent transactions, deliveries, test cards). */
export function registerPages(router: Router, _ctx: SandboxContext): void {
  router.add("GET", "/", () => html("<!doctype html><title>PGS sandbox</title><h1>PGS sandbox</h1>"))
}
