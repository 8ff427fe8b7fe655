/**
 * The small page the 3-D Secure challenge iframe lands on: it tells the page that framed the challenge (the
 * storefront, or the pay link's page) that the gateway has answered, so it reads the session again. The message
 * goes to that page's exact origin only, never "*": another site framing this URL learns nothing.
 */
export type Completion = { sessionId: string; ok: boolean; words: string; parentOrigin: string | null }

export function completionPage({ sessionId, ok, words, parentOrigin }: Completion): string {
  // The session id is validated (payses_ + alphanumerics); JSON plus "<" escaping keeps the script inert anyway.
  const script = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c")
  const message = script({ type: "PGS_3DS_COMPLETE", session_id: sessionId, ok })
  const post = parentOrigin
    ? `<script>(function(){var t=window.parent&&window.parent!==window?window.parent:window.opener;if(t){t.postMessage(${message},${script(parentOrigin)})}})()</script>`
    : ""
  return `<!doctype html><html><head><meta charset="utf-8"><title>Authentication</title></head><body>
<p id="pgs-3ds-complete">${escapeHtml(words)}</p>
${post}
</body></html>`
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
