import type { SandboxContext } from "../core/context"
import { html, type Router } from "../core/http"
import { homePage } from "./home"

/** Pages for people: the sandbox home (recent transactions, deliveries, test cards). */
export function registerPages(router: Router, ctx: SandboxContext): void {
  router.add("GET", "/", (req) => {
    // ?refresh=N reloads the page every N seconds (2-60) while you watch a flow.
    const n = Number(req.url.searchParams.get("refresh"))
    return html(homePage(ctx, Number.isInteger(n) && n >= 2 && n <= 60 ? n : null))
  })
}
