/**
 * The full 3-D Secure 2 emulation (metadata simulated_flow), as a small state machine on the transaction:
 * fingerprint → (frictionless result | challenge) → result, with at most one extra round per attempt.
 * The API handlers (api/three-ds.ts) and the browser pages (pages/acs.ts) only call these functions.
 */
import type { ExecutionResponse } from "../schemas"
import type { SandboxContext } from "../core/context"
import { newUuid } from "../core/ids"
import type { TransactionRecord } from "../core/types"
import { actionResponse, resultResponse } from "../core/views"
import { rejectField } from "./errors"
import { indexThreeDs, sealPaymentData, type CardFlow, type FullThreeDs, type SimulatedFlow, type TransStatus } from "./flow"
import { authenticatedAs, authenticationPassed, authorizeCard } from "./outcome"
import { acsChallengeUrl, acsMethodUrl, methodNotificationUrl } from "./urls"

export const MESSAGE_VERSION = "2.2.0"

/** EMV 3DS window size codes: 05 full screen on narrow screens, else 02 (390x400). */
const windowSizeFor = (screenWidth: number | undefined) => (screenWidth !== undefined && screenWidth < 450 ? "05" : "02")

export function beginFullThreeDs(
  ctx: SandboxContext,
  tx: TransactionRecord,
  flow: CardFlow,
  simulated: SimulatedFlow,
  options: { notification_url: string; extra_rounds: number },
): ExecutionResponse {
  // Assumption: a card that is not enrolled gets no 3-D Secure at all; the authorization runs at once.
  if (simulated === "VERSIONING_NOT_ENROLLED") {
    authorizeCard(ctx, tx, { status: "NOT_ENROLLED", trans_status: null })
    return resultResponse(tx)
  }
  const serverTransId = newUuid()
  // Assumption: in the TIMEOUT flows the ACS has no method URL (the fingerprint "times out"), so the token omits
  // three_ds_method_url and the merchant answers fingerprint_result = Base64("N").
  const timeout = simulated.startsWith("VERSIONING_FINGERPRINT_TIMEOUT")
  const state: FullThreeDs = {
    mode: "full",
    simulated_flow: simulated,
    three_ds_server_trans_id: serverTransId,
    acs_trans_id: newUuid(),
    stage: "fingerprint",
    three_ds_method_url: timeout ? null : acsMethodUrl(ctx),
    method_data_received: false,
    method_completed: false,
    fingerprint_result: null,
    notification_url: options.notification_url,
    challenge_window_size: windowSizeFor(tx.browser_info?.screen_width),
    payment_data: sealPaymentData(ctx, tx.id, serverTransId),
    acs_result: null,
    challenge_canceled: false,
    extra_rounds_requested: options.extra_rounds,
    extra_rounds_done: 0,
  }
  flow.three_ds = state
  indexThreeDs(ctx, serverTransId, tx)
  flow.pending = threeDsAction(ctx, tx, state, "THREE_DS_2_FINGERPRINT")
  return flow.pending
}

/** The decoded action.token: every documented field (three_ds_method_url only when the ACS has one). */
export function actionToken(ctx: SandboxContext, tx: TransactionRecord, state: FullThreeDs): Record<string, string> {
  return {
    ...(state.three_ds_method_url ? { three_ds_method_url: state.three_ds_method_url } : {}),
    three_ds_server_trans_id: state.three_ds_server_trans_id,
    three_ds_method_notification_url: methodNotificationUrl(ctx, tx.id),
    acs_url: acsChallengeUrl(ctx),
    acs_trans_id: state.acs_trans_id,
    message_version: MESSAGE_VERSION,
    challenge_window_size: state.challenge_window_size,
  }
}

function threeDsAction(
  ctx: SandboxContext,
  tx: TransactionRecord,
  state: FullThreeDs,
  type: "THREE_DS_2_FINGERPRINT" | "THREE_DS_2_CHALLENGE",
): ExecutionResponse {
  return actionResponse({
    transaction_id: tx.id,
    session_id: state.three_ds_server_trans_id,
    type,
    token: Buffer.from(JSON.stringify(actionToken(ctx, tx, state))).toString("base64"),
    payment_data: state.payment_data,
  })
}

function challenge(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow, state: FullThreeDs): ExecutionResponse {
  state.stage = "challenge"
  state.acs_result = null
  state.challenge_canceled = false
  flow.pending = threeDsAction(ctx, tx, state, "THREE_DS_2_CHALLENGE")
  return flow.pending
}

/** POST request-authentication: the issuer decides frictionless (result) or asks for a challenge (action). */
export function requestAuthentication(
  ctx: SandboxContext,
  tx: TransactionRecord,
  flow: CardFlow,
  state: FullThreeDs,
  fingerprint: "Y" | "N",
): ExecutionResponse {
  if (tx.status !== "CREATED" || state.stage === "done") return resultResponse(tx)
  // Asked again while the challenge is pending: the same challenge (idempotent retry).
  if (state.stage === "challenge") return flow.pending ?? resultResponse(tx)
  state.fingerprint_result = fingerprint
  const frictionless: Partial<Record<SimulatedFlow, TransStatus>> = {
    VERSIONING_FINGERPRINT_A_FRICTIONLESS: "A",
    VERSIONING_FINGERPRINT_N_FRICTIONLESS: "N",
    VERSIONING_FINGERPRINT_TIMEOUT_FRICTIONLESS: "Y",
  }
  const decided = frictionless[state.simulated_flow]
  if (!decided) return challenge(ctx, tx, flow, state)
  state.stage = "done"
  authorizeCard(ctx, tx, authenticatedAs(decided))
  return resultResponse(tx)
}

/**
 * The merchant says the challenge is over (authentication-completed, or the full-page notification). The issuer's
 * answer is what the ACS recorded for this challenge, never the merchant's trans_status (a browser's message is only
 * the signal to ask): with no decision at the ACS yet, the transaction keeps waiting and the same challenge is
 * answered again (docs/assumptions.md). Y authorizes, N declines (Cancel: CANCELED); an issuer set up with
 * simulate_extra_rounds asks for one more challenge after a Y; asked a second time, it declines.
 */
export function completeChallenge(ctx: SandboxContext, tx: TransactionRecord, flow: CardFlow, state: FullThreeDs): ExecutionResponse {
  if (tx.status !== "CREATED" || state.stage === "done") return resultResponse(tx)
  if (state.stage !== "challenge") throw rejectField("session_id", "has no challenge to complete: call request-authentication first")
  const decided = state.acs_result
  if (!decided) return flow.pending ?? threeDsAction(ctx, tx, state, "THREE_DS_2_CHALLENGE")
  if (state.challenge_canceled) {
    // The status endpoint documents CANCELED for "customer canceled or abandoned the challenge".
    state.stage = "done"
    tx.authentication_status = "NOT_AUTHENTICATED"
    flow.pending = null
    ctx.store.setStatus(tx, "CANCELED", { processing_code: "1003", response_message: "Canceled: the cardholder canceled the challenge" })
    return resultResponse(tx)
  }
  const furtherAuthentication = decided === "C" || (authenticationPassed(decided) && state.extra_rounds_done < state.extra_rounds_requested)
  if (furtherAuthentication) {
    if (state.extra_rounds_done >= 1) {
      state.stage = "done"
      tx.authentication_status = "NOT_AUTHENTICATED"
      flow.pending = null
      ctx.store.setStatus(tx, "DECLINED", {
        processing_code: "1000",
        response_message: "TRX_STATUS_DECLINED: the issuer asked for further authentication a second time",
      })
      return resultResponse(tx)
    }
    state.extra_rounds_done++
    return challenge(ctx, tx, flow, state)
  }
  state.stage = "done"
  authorizeCard(ctx, tx, authenticatedAs(decided))
  return resultResponse(tx)
}
