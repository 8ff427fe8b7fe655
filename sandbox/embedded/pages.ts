/** The HTML pages of the embedded fields: the card frame and the return page that ends a redirect/form step. */
import type { SandboxContext } from "../core/context"
import { escapeHtml, html, type Reply, type SandboxRequest } from "../core/http"

/** GET /embedded/frame — an empty shell; embedded-frame.js draws the form once the parent sends its config. */
export function framePage(): Reply {
  return html(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<link rel="stylesheet" href="/embedded/frame.css">
</head>
<body>
<div id="pgs-root" aria-live="polite"></div>
<script src="/embedded/frame.js"></script>
</body>
</html>`)
}

/**
 * GET /embedded/return — the transaction's return_url in the embedded flow. Inside the card frame it tells the
 * frame (same origin) that the redirect or form step is over; opened on its own it forwards to the session's
 * return_url, which is where the gateway sends the shopper after completion.
 */
export function returnPage(ctx: SandboxContext, req: SandboxRequest): Reply {
  const session = ctx.store.sessions.get(req.url.searchParams.get("session_id") ?? "")
  const target = session?.return_url ?? ""
  const query = Object.fromEntries(req.url.searchParams)
  return html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Returning…</title></head>
<body style="font-family: system-ui, sans-serif; color: #444">
<p>Payment step finished. ${target ? `<a href="${escapeHtml(target)}">Continue</a>` : ""}</p>
<script>
  (function () {
    var query = ${JSON.stringify(query).replace(/</g, "\\u003c")};
    var target = ${JSON.stringify(target).replace(/</g, "\\u003c")};
    if (window.parent !== window) window.parent.postMessage({ type: "PGS_EMBEDDED_RETURN", query: query }, location.origin);
    else if (target) location.replace(target);
  })();
</script>
</body></html>`)
}
