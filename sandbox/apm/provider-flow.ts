/**
 * The state a redirect transaction keeps for its sandbox provider page, and the answers built from it:
 * the redirect object, the page URL, the choices the page offers and where each choice sends the browser.
 */
import type { ExecutionResponse, TransactionStatus } from "../schemas"
import type { SandboxContext } from "../core/context"
import { newId } from "../core/ids"
import type { TransactionRecord } from "../core/types"
import { redirectResponse, resultResponse } from "../core/views"

export type ProviderChoice = "approve" | "decline" | "cancel" | "pending"

export type ProviderFlow = {
  /** payment: POST /api/transactions/payment; authorize: a redirect method of authorize. */
  origin: "payment" | "authorize"
  /** The payment `method` or the authorize payment_method.type. */
  method: string
  session_id: string
  /** false when the transaction was created without sending the customer anywhere (metadata simulate_result PENDING). */
  redirect: boolean
  /** provider-instant without a pre-collected scheme_code: the page asks for it before approving. */
  needs_scheme_code: boolean
  scheme_code: string | null
}

/** Methods whose page offers "Leave pending": the bank journeys, which may never resolve. */
const LEAVE_PENDING_METHODS = new Set(["OPEN_BANKING", "BANK_SCHEME_REDIRECT", "OPENBANKING_REDIRECT"])

export const newProviderFlow = (fields: Omit<ProviderFlow, "session_id" | "scheme_code"> & { scheme_code?: string | null }): ProviderFlow => ({
  scheme_code: null,
  ...fields,
  session_id: newId("ses"),
})

export function providerFlowOf(tx: TransactionRecord): ProviderFlow | undefined {
  const flow = tx.flow?.provider
  return flow && typeof flow === "object" ? (flow as ProviderFlow) : undefined
}

export const providerUrl = (ctx: SandboxContext, tx: TransactionRecord) => `${ctx.urls.base}/provider/${tx.id}`

export function choicesFor(flow: ProviderFlow): ProviderChoice[] {
  const choices: ProviderChoice[] = ["approve", "decline", "cancel"]
  if (LEAVE_PENDING_METHODS.has(flow.method)) choices.push("pending")
  return choices
}

export const STATUS_FOR_CHOICE: Record<ProviderChoice, TransactionStatus> = {
  approve: "APPROVED",
  decline: "DECLINED",
  cancel: "CANCELED",
  pending: "PENDING",
}

/**
 * Where the browser goes once the provider is done: approved or still pending → return_url, declined →
 * error_url, canceled → cancel_url. Authorize-based methods may lack error/cancel URLs: then return_url.
 */
export function returnTarget(tx: TransactionRecord): string | undefined {
  switch (tx.status) {
    case "DECLINED":
    case "INVALID":
    case "SESSION_EXPIRED":
      return tx.error_url ?? tx.return_url
    case "CANCELED":
      return tx.cancel_url ?? tx.return_url
    default:
      return tx.return_url
  }
}

/** Execution response for a redirect transaction: the redirect while the customer still has to act, else the result. */
export function redirectOrResult(ctx: SandboxContext, tx: TransactionRecord): ExecutionResponse {
  const flow = providerFlowOf(tx)
  if (tx.status === "PENDING" && flow?.redirect)
    return redirectResponse({ transaction_id: tx.id, session_id: flow.session_id, url: providerUrl(ctx, tx) })
  return resultResponse(tx)
}

/** Store the flow on a new transaction and point its redirect_url at the provider page while the customer must act. */
export function attachProviderFlow(ctx: SandboxContext, tx: TransactionRecord, flow: ProviderFlow): void {
  tx.flow = { ...tx.flow, provider: flow }
  tx.redirect_url = flow.redirect && tx.status === "PENDING" ? providerUrl(ctx, tx) : null
}
