/**
 * The card simulator's authorization, once authentication is over (or skipped): the final status, processing
 * code and message, the authentication status, and tokenization on approval. The webhook follows from setStatus.
 */
import type { SandboxContext } from "../core/context"
import type { TransactionRecord } from "../core/types"
import { cardFlow, rememberedCard, type TransStatus } from "./flow"
import { RESPONSE_CODES, type ResponseCode } from "./metadata"
import { sendTokenizationWebhook, storeCard } from "./tokenize"

/** How authentication went. `trans_status` null: no 3-D Secure ran (skipped, not enrolled, cryptogram). */
export type Authentication = { status: string; trans_status: TransStatus | null }

const AUTHENTICATION_STATUS: Record<TransStatus, string> = {
  Y: "AUTHENTICATED",
  A: "ATTEMPTED",
  N: "NOT_AUTHENTICATED",
  R: "REJECTED",
  U: "UNAVAILABLE",
  C: "CHALLENGE_REQUIRED",
}
export const authenticatedAs = (trans_status: TransStatus): Authentication => ({ status: AUTHENTICATION_STATUS[trans_status], trans_status })
export const SKIPPED: Authentication = { status: "SKIPPED", trans_status: null }

/** Y (authenticated) and A (attempted) let the authorization go on; N, R, U (and a C nobody answered) decline. */
export const authenticationPassed = (s: TransStatus) => s === "Y" || s === "A"

export function authorizeCard(ctx: SandboxContext, tx: TransactionRecord, authentication: Authentication): void {
  const flow = cardFlow(tx)
  tx.authentication_status = authentication.status
  if (flow) flow.pending = null
  if (authentication.trans_status && !authenticationPassed(authentication.trans_status)) {
    ctx.store.setStatus(tx, "DECLINED", {
      processing_code: "1000",
      response_message: `TRX_STATUS_DECLINED: 3-D Secure authentication not successful (trans_status ${authentication.trans_status})`,
    })
    return
  }
  const decider = flow?.decider ?? "response_code"
  if (decider === "insufficient_funds") {
    ctx.store.setStatus(tx, "DECLINED", { processing_code: "1004", response_message: "TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS" })
    return
  }
  const code: ResponseCode = decider === "approve" ? "TRX_STATUS_APPROVED" : ((tx.metadata.response_code as ResponseCode | undefined) ?? "TRX_STATUS_APPROVED")
  const outcome = RESPONSE_CODES[code]
  if (outcome.status !== "APPROVED") {
    ctx.store.setStatus(tx, outcome.status, { processing_code: outcome.processing_code, response_message: code })
    return
  }
  // Save the card before the status change so the approved result (and its webhook) already carries the token.
  const card = rememberedCard(tx)
  const stored = flow?.tokenization?.save && card ? storeCard(ctx, tx, card, flow.tokenization.tokenize_for) : null
  if (stored && tx.payment_method) tx.payment_method.token = stored.id
  ctx.store.setStatus(tx, "APPROVED", { processing_code: "0000", response_message: code })
  if (stored) sendTokenizationWebhook(ctx, stored, tx)
}
