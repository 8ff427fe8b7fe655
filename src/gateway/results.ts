/**
 * The four-field execution response as a discriminated result, so callers switch on `kind` instead of
 * probing nulls: finished (a transaction), fingerprint, challenge, redirect, form_submit.
 */
import type { z } from "zod"
import type { Action, ActionToken, ExecutionResponse, Transaction } from "./schemas/responses"
import type { formSubmit, redirect } from "./schemas/responses"
import { GatewayProtocolError } from "./errors"
import { asTransactionId, type GatewayTransactionId } from "./ids"
import { outcomeOf, type Outcome } from "./outcomes"
import { decodeActionToken, ThreeDSDecodeError } from "./three-ds"

export type Redirect = z.infer<typeof redirect>
export type FormSubmit = z.infer<typeof formSubmit>

type Common = { transactionId: GatewayTransactionId; raw: ExecutionResponse }
export type FinishedResult = Common & { kind: "finished"; transaction: Transaction; outcome: Outcome }
export type FingerprintResult = Common & { kind: "fingerprint"; action: Action; token: ActionToken }
export type ChallengeResult = Common & { kind: "challenge"; action: Action; token: ActionToken }
/** A redirect or form may come with the (PENDING) transaction; verify the final status by status call or webhook. */
export type RedirectResult = Common & { kind: "redirect"; redirect: Redirect; transaction: Transaction | null }
export type FormSubmitResult = Common & { kind: "form_submit"; formSubmit: FormSubmit; transaction: Transaction | null }
export type ExecutionResult = FinishedResult | FingerprintResult | ChallengeResult | RedirectResult | FormSubmitResult

/** A next step wins over a result that comes with it (the wallet-redirect sample carries status PENDING next to its redirect). */
export function toExecutionResult(raw: ExecutionResponse, operation: string): ExecutionResult {
  if (raw.action) {
    let token: ActionToken
    try {
      token = decodeActionToken(raw.action.token)
    } catch (error) {
      throw new GatewayProtocolError(`${operation}: ${(error as ThreeDSDecodeError).message}`, [], { operation, body: raw })
    }
    const kind = raw.action.type === "THREE_DS_2_FINGERPRINT" ? "fingerprint" : "challenge"
    return { kind, action: raw.action, token, transactionId: asTransactionId(raw.action.transaction_id), raw }
  }
  if (raw.redirect) return { kind: "redirect", redirect: raw.redirect, transaction: raw.result, transactionId: asTransactionId(raw.redirect.transaction_id), raw }
  if (raw.form_submit)
    return { kind: "form_submit", formSubmit: raw.form_submit, transaction: raw.result, transactionId: asTransactionId(raw.form_submit.transaction_id), raw }
  if (raw.result) return { kind: "finished", transaction: raw.result, outcome: outcomeOf(raw.result), transactionId: asTransactionId(raw.result.id), raw }
  throw new GatewayProtocolError(`${operation}: the execution response has neither result, action, redirect nor form_submit`, [], { operation, body: raw })
}
