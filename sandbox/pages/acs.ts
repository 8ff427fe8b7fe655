/**
 * The sandbox ACS and the gateway's 3-D Secure browser endpoints:
 * - the ACS method page (three_ds_method_url) and the method notification URL it reports to;
 * - the ACS challenge page (acs_url, form field creq) with Approve / Decline, whose decision posts a cres
 *   to the notification URL (the DIRECT_API override or the gateway default);
 * - the gateway default challenge notification pages (three documented paths).
 */
import type { SandboxContext } from "../core/context"
import { escapeHtml, parseForm, ReplyError, type Reply, type Router, type SandboxRequest } from "../core/http"
import type { TransactionRecord } from "../core/types"
import { cardFlow, findByServerTransId, type FullThreeDs } from "../cards/flow"
import { autoSubmitForm, backToMerchant, decodeBase64Json, errorPage, formValue, page, scriptValue } from "../cards/page-kit"
import { completeChallenge, MESSAGE_VERSION } from "../cards/three-ds-flow"
import { acsChallengeUrl, acsDecisionUrl, NOTIFICATION_PATHS } from "../cards/urls"
import { formatMoney } from "./provider-layout"

function flowFor(ctx: SandboxContext, serverTransId: unknown): { tx: TransactionRecord; state: FullThreeDs } {
  const found = typeof serverTransId === "string" ? findByServerTransId(ctx, serverTransId) : undefined
  if (!found) throw errorPage("unknown threeDSServerTransID", 404)
  return found
}

/** The creq a merchant page posts to acs_url, checked field by field against the pending challenge. */
function checkCreq(ctx: SandboxContext, creq: Record<string, unknown>): { tx: TransactionRecord; state: FullThreeDs } {
  const found = flowFor(ctx, creq.threeDSServerTransID)
  const { state } = found
  if (creq.messageType !== "CReq") throw errorPage("messageType must be CReq")
  if (creq.acsTransID !== state.acs_trans_id) throw errorPage("acsTransID does not match the transaction")
  if (creq.messageVersion !== MESSAGE_VERSION) throw errorPage(`messageVersion must be ${MESSAGE_VERSION}`)
  if (typeof creq.challengeWindowSize !== "string" || !/^0[1-5]$/.test(creq.challengeWindowSize))
    throw errorPage("challengeWindowSize must be one of 01-05")
  if (state.stage !== "challenge" || found.tx.status !== "CREATED") throw errorPage("no challenge is pending for this transaction", 409)
  return found
}

const base64UrlJson = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")

function challengePage(ctx: SandboxContext, tx: TransactionRecord, state: FullThreeDs): Reply {
  const action = escapeHtml(acsDecisionUrl(ctx, state.three_ds_server_trans_id))
  const round = state.extra_rounds_done > 0 ? `<p id="round">Additional authentication requested by your bank.</p>` : ""
  return page(
    "Sandbox ACS: confirm this payment",
    `${round}<dl><dt>Merchant</dt><dd>${escapeHtml(tx.merchant_id)}</dd><dt>Amount</dt><dd>${escapeHtml(formatMoney(tx.amount, tx.currency))}</dd>` +
      `<dt>Card</dt><dd>${escapeHtml(tx.payment_method?.masked ?? "unknown")}</dd></dl>` +
      `<form id="approve" method="POST" action="${action}"><input type="hidden" name="trans_status" value="Y"><button type="submit">Approve (Y)</button></form>` +
      `<form id="decline" method="POST" action="${action}"><input type="hidden" name="trans_status" value="N"><button type="submit">Decline (N)</button></form>` +
      `<form id="cancel" method="POST" action="${action}"><input type="hidden" name="trans_status" value="N"><input type="hidden" name="cancel" value="01"><button type="submit">Cancel</button></form>`,
  )
}

/** The page at the default notification URL: hands trans_status to the parent when framed, else finalizes. */
function notificationPage(req: SandboxRequest, cres: string, transStatus: string): Reply {
  return page(
    "Completing authentication",
    `<form id="finalize" method="POST" action="${escapeHtml(req.url.pathname)}"><input type="hidden" name="cres" value="${escapeHtml(cres)}">` +
      `<input type="hidden" name="finalize" value="full-page"><noscript><button type="submit">Continue</button></noscript></form>` +
      `<script>(function(){var s=${scriptValue(transStatus)};` +
      `if(window.parent&&window.parent!==window){window.parent.postMessage({type:"CHALLENGE_RESPONSE",trans_status:s},"*")}` +
      `else{document.getElementById("finalize").submit()}})()</script>`,
  )
}

/** Page errors raised as gateway 422s (e.g. a challenge not reached yet) are shown as HTML. */
function asPage(run: () => Reply): Reply {
  try {
    return run()
  } catch (error) {
    if (error instanceof ReplyError && error.reply.status === 422) {
      const body = JSON.parse(String(error.reply.body ?? "{}"))
      throw errorPage(body.errors?.map((e: { property: string; message: string }) => `${e.property} ${e.message}`).join("; ") ?? "invalid")
    }
    throw error
  }
}

export function registerAcsPages(router: Router, ctx: SandboxContext): void {
  // three_ds_method_url: the ACS "fingerprints" the browser, then reports to threeDSMethodNotificationURL.
  router.add("POST", "/acs/three-ds-method", (req) => {
    const data = formValue(parseForm(req), "threeDSMethodData")
    const decoded = decodeBase64Json(data, "threeDSMethodData")
    const { state } = flowFor(ctx, decoded.threeDSServerTransID)
    const notify = decoded.threeDSMethodNotificationURL
    if (typeof notify !== "string" || !/^https?:\/\//.test(notify)) throw errorPage("threeDSMethodNotificationURL must be an http(s) URL")
    state.method_data_received = true
    const reply = base64UrlJson({ threeDSServerTransID: state.three_ds_server_trans_id })
    return page("Sandbox ACS: device check", autoSubmitForm(notify, { threeDSMethodData: reply }))
  })

  router.add("POST", "/three-ds/:id/method-notification", (req) => {
    const decoded = decodeBase64Json(formValue(parseForm(req), "threeDSMethodData"), "threeDSMethodData")
    const { tx, state } = flowFor(ctx, decoded.threeDSServerTransID)
    if (tx.id !== req.params.id) throw errorPage("threeDSServerTransID belongs to another transaction")
    state.method_completed = true
    return page("Device check complete", `<p id="method-completed">${escapeHtml(state.three_ds_server_trans_id)}</p>`)
  })

  router.add("POST", "/acs/challenge", (req) => {
    const creq = decodeBase64Json(formValue(parseForm(req), "creq"), "creq")
    const { tx, state } = checkCreq(ctx, creq)
    return challengePage(ctx, tx, state)
  })

  // The cardholder decided: remember it as the issuer's answer and post the cres to the notification URL.
  router.add("POST", "/acs/challenge/:serverTransId/decision", (req) => {
    const { tx, state } = flowFor(ctx, req.params.serverTransId)
    if (state.stage !== "challenge" || tx.status !== "CREATED") throw errorPage("no challenge is pending for this transaction", 409)
    const transStatus = formValue(parseForm(req), "trans_status")
    if (transStatus !== "Y" && transStatus !== "N") throw errorPage("trans_status must be Y or N")
    const form = parseForm(req)
    state.acs_result = transStatus
    // Cancel at the ACS: transStatus N plus the EMV challengeCancel indicator ("01": cardholder canceled).
    state.challenge_canceled = form.cancel === "01"
    const cres = base64UrlJson({
      threeDSServerTransID: state.three_ds_server_trans_id,
      acsTransID: state.acs_trans_id,
      messageType: "CRes",
      messageVersion: MESSAGE_VERSION,
      transStatus,
      ...(state.challenge_canceled ? { challengeCancel: "01" } : {}),
    })
    return page("Sandbox ACS: returning to the merchant", autoSubmitForm(state.notification_url, { cres }))
  })

  for (const path of Object.values(NOTIFICATION_PATHS)) {
    router.add("POST", `/three-ds/:id/${path}`, (req) =>
      asPage(() => {
        const form = parseForm(req)
        const cresField = formValue(form, "cres")
        const cres = decodeBase64Json(cresField, "cres")
        const { tx, state } = flowFor(ctx, cres.threeDSServerTransID)
        if (tx.id !== req.params.id) throw errorPage("threeDSServerTransID belongs to another transaction")
        if (typeof cres.transStatus !== "string" || !/^[YNUACR]$/.test(cres.transStatus)) throw errorPage("transStatus must be one of Y, N, U, A, C, R")
        // The gateway believes its ACS, not the cres a browser brings: no decision recorded there, nothing to report.
        const decided = state.acs_result
        if (!decided) throw errorPage("the ACS has not completed a challenge for this transaction", 409)
        if (form.finalize !== "full-page") return notificationPage(req, cresField, decided)
        // Full-page challenge: the gateway finishes the flow itself and sends the browser back to the merchant.
        const flow = cardFlow(tx)!
        const next = completeChallenge(ctx, tx, flow, state)
        if (next.action?.type === "THREE_DS_2_CHALLENGE") {
          // The issuer asked for one more round: straight back to the ACS with a new creq.
          const creq = Buffer.from(
            JSON.stringify({
              threeDSServerTransID: state.three_ds_server_trans_id,
              acsTransID: state.acs_trans_id,
              messageVersion: MESSAGE_VERSION,
              messageType: "CReq",
              challengeWindowSize: state.challenge_window_size,
            }),
          ).toString("base64")
          return page("Additional authentication", autoSubmitForm(acsChallengeUrl(ctx), { creq }))
        }
        return backToMerchant(tx)
      }),
    )
  }
}
