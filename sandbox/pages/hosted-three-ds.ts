/**
 * The hosted payment page runs the full 3-D Secure browser steps itself (metadata simulated_flow): the fingerprint
 * (the ACS method page in a hidden iframe, then the fixed wait) and, server-side, request-authentication. The
 * challenge that may follow is a full-page post to the ACS, which returns through the gateway's hosted-page
 * notification URL to the page's return address.
 */
import type { Action, ExecutionResponse } from "../schemas"
import { cardFlow } from "../cards/flow"
import { requestAuthentication } from "../cards/three-ds-flow"
import type { SandboxContext } from "../core/context"
import { escapeHtml, html, type Reply } from "../core/http"
import type { HostedPageRecord } from "../core/types"
import { page as shell } from "./provider-layout"

const decodeToken = (action: Action) => JSON.parse(Buffer.from(action.token, "base64").toString("utf8")) as Record<string, string>

const hidden = (data: Record<string, string>) =>
  Object.entries(data)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join("")

/** The fingerprint page: method form into a hidden iframe when the ACS has a method URL, then continue after the wait. */
export function fingerprintPage(ctx: SandboxContext, p: HostedPageRecord, action: Action): Reply {
  const token = decodeToken(action)
  const methodUrl = token.three_ds_method_url
  const continueForm = `<form id="continue" data-choice="continue" method="post" action="/hpp/${encodeURIComponent(p.id)}/three-ds">${hidden({
    fingerprint: methodUrl ? "Y" : "N",
  })}<noscript><button type="submit">Continue</button></noscript></form>`
  const method = methodUrl
    ? `<iframe name="three-ds-method" hidden></iframe><form data-choice="method" method="post" target="three-ds-method" action="${escapeHtml(methodUrl)}">${hidden({
        threeDSMethodData: Buffer.from(
          JSON.stringify({ threeDSServerTransID: token.three_ds_server_trans_id, threeDSMethodNotificationURL: token.three_ds_method_notification_url }),
        ).toString("base64"),
      })}</form>`
    : ""
  const script = `<script>(function(){var m=document.querySelector('form[data-choice="method"]');if(m)m.submit();
setTimeout(function(){document.getElementById("continue").submit()},${methodUrl ? ctx.options.fingerprintWaitMs : 0})})()</script>`
  return html(shell("3-D Secure", `<h1>3-D Secure</h1><p class="note">Checking your device…</p>${method}${continueForm}${script}`, p.language))
}

/** The fingerprint is done (Y: the method form was submitted; N: there was no method URL): ask the issuer. */
export function afterFingerprint(ctx: SandboxContext, p: HostedPageRecord, fingerprint: string): ExecutionResponse | null {
  const tx = p.transaction_id ? ctx.store.transactions.get(p.transaction_id) : undefined
  const flow = tx && cardFlow(tx)
  const state = flow?.three_ds
  if (!tx || !flow || state?.mode !== "full") return null
  return requestAuthentication(ctx, tx, flow, state, fingerprint === "Y" ? "Y" : "N")
}

/** Full-page challenge: post the creq to the ACS; it ends at the gateway's notification URL, then the return address. */
export function challengeData(action: Action): { url: string; data: Record<string, string> } {
  const token = decodeToken(action)
  const creq = Buffer.from(
    JSON.stringify({
      threeDSServerTransID: token.three_ds_server_trans_id,
      acsTransID: token.acs_trans_id,
      messageVersion: token.message_version,
      messageType: "CReq",
      challengeWindowSize: token.challenge_window_size,
    }),
  ).toString("base64")
  return { url: token.acs_url, data: { creq } }
}
