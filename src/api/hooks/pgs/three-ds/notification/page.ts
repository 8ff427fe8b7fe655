/** The small page the 3-D Secure challenge iframe lands on: it tells the storefront (its parent) we are done. */
export function completionPage(sessionId: string, ok: boolean): string {
  // The session id is validated (payses_ + alphanumerics); JSON plus "<" escaping keeps the script inert anyway.
  const message = JSON.stringify({ type: "PGS_3DS_COMPLETE", session_id: sessionId, ok }).replace(/</g, "\\u003c")
  return `<!doctype html><html><head><meta charset="utf-8"><title>Authentication complete</title></head><body>
<p id="pgs-3ds-complete">${ok ? "Authentication complete. You can close this window." : "Authentication could not be completed."}</p>
<script>(function(){var m=${message};var t=window.parent&&window.parent!==window?window.parent:window.opener;if(t){t.postMessage(m,"*")}})()</script>
</body></html>`
}
