import type { SandboxContext } from "../core/context"
import { javascript, type Reply, type Router } from "../core/http"
import { alternativePayment } from "./alternative"
import { framePage, returnPage } from "./pages"
import { pay } from "./pay"
import { sessionInfo, sessionTransactionStatus } from "./session-info"
import { readPublicFile } from "./static-files"
import { attachSimulatorMetadata } from "./simulator-metadata"
import { embeddedAuthenticationCompleted, embeddedRequestAuthentication } from "./three-ds"

const css = (body: string): Reply => ({ status: 200, headers: { "content-type": "text/css; charset=utf-8", "cache-control": "no-store" }, body })

/** embedded-fields.js, its card-field iframe and the client-key API behind it. */
export function registerEmbeddedRoutes(router: Router, ctx: SandboxContext): void {
  router.add("GET", "/embedded-fields.js", () => javascript(readPublicFile("embedded-fields.js")))
  router.add("GET", "/embedded/frame", () => framePage())
  router.add("GET", "/embedded/frame.js", () => javascript(readPublicFile("embedded-frame.js")))
  router.add("GET", "/embedded/frame.css", () => css(readPublicFile("embedded-frame.css")))
  router.add("GET", "/embedded/return", (req) => returnPage(ctx, req))
  router.add("POST", "/embedded/return", (req) => returnPage(ctx, req))

  // Client-key API: public routes (no bearer), each handler checks the key against the session's merchant.
  router.add("GET", "/embedded/api/sessions/:id", (req) => sessionInfo(ctx, req))
  router.add("POST", "/embedded/api/sessions/:id/pay", (req) => pay(ctx, req))
  router.add("GET", "/embedded/api/sessions/:id/transactions/:tx", (req) => sessionTransactionStatus(ctx, req))
  router.add("POST", "/embedded/api/sessions/:id/three-ds/authentication-completed", (req) => embeddedAuthenticationCompleted(ctx, req))
  router.add("POST", "/embedded/api/sessions/:id/three-ds/:serverTransId/request-authentication", (req) => embeddedRequestAuthentication(ctx, req))
  router.add("POST", "/embedded/api/sessions/:id/alternative-payment", (req) => alternativePayment(ctx, req))

  // Test control (sandbox extension): simulator metadata for a session's embedded card payments.
  router.add("POST", "/_sandbox/embedded/sessions/:id/metadata", (req) => attachSimulatorMetadata(ctx, req))
}
