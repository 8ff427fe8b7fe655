/**
 * Processing codes and decline codes → named outcomes, each with a message safe to show a shopper and one
 * for the merchant. One table; `outcomeOf` looks at processing_code first, then at decline/error codes
 * (TRX_STATUS_*, INVALID_REQUEST_PAYMENT_METHOD_INACTIVE) found in response_message or errors.
 */
export type OutcomeName =
  | "approved"
  | "declined"
  | "failed"
  | "pending"
  | "canceled"
  | "insufficient_funds"
  | "session_expired"
  | "invalid_request"
  | "terminal_not_found"
  | "terminal_inactive"
  | "terminal_not_accepting"
  | "terminal_refused"
  | "merchant_inactive"
  | "payment_method_inactive"
  | "unknown"

export type Outcome = { name: OutcomeName; code: string | null; shopperMessage: string; merchantMessage: string }

const TRY_OTHER = "Your payment could not be completed. Please try another payment method."
const UNAVAILABLE = "Payments are temporarily unavailable. Please try again later."

const TABLE: Record<OutcomeName, Omit<Outcome, "name" | "code">> = {
  approved: { shopperMessage: "Your payment was approved.", merchantMessage: "Approved (0000)." },
  declined: { shopperMessage: "Your payment was declined. Please try another payment method.", merchantMessage: "Declined by the provider or issuer (1000 / TRX_STATUS_DECLINED)." },
  failed: { shopperMessage: TRY_OTHER, merchantMessage: "Processing failed at the provider (1001 / TRX_STATUS_FAILED)." },
  pending: { shopperMessage: "Your payment is being processed. We will confirm it shortly.", merchantMessage: "Pending (1002): the final status arrives by webhook or the status endpoint." },
  canceled: { shopperMessage: "The payment was canceled.", merchantMessage: "Canceled: voided by the store, or given up by the customer or the gateway (1003)." },
  insufficient_funds: { shopperMessage: "Your payment was declined. Please try another card or payment method.", merchantMessage: "Declined for insufficient funds (1004 / TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS)." },
  session_expired: { shopperMessage: "The payment session expired. Please start the payment again.", merchantMessage: "Session expired before completion (1005)." },
  invalid_request: { shopperMessage: TRY_OTHER, merchantMessage: "The gateway refused the request as invalid (2000); see the transaction errors." },
  terminal_not_found: { shopperMessage: UNAVAILABLE, merchantMessage: "Terminal not found (2013): check the terminal id in the plugin settings." },
  terminal_inactive: { shopperMessage: UNAVAILABLE, merchantMessage: "Terminal inactive (2014): ask the account manager to activate it." },
  terminal_not_accepting: { shopperMessage: UNAVAILABLE, merchantMessage: "Terminal not accepting payments (2015): the method or feature is not enabled on it." },
  // 2016 is named by issue 3's range but not by the spec's table: treated as a terminal refusal.
  terminal_refused: { shopperMessage: UNAVAILABLE, merchantMessage: "The terminal refused the transaction (2016, undocumented code)." },
  merchant_inactive: { shopperMessage: UNAVAILABLE, merchantMessage: "Merchant account inactive (2017): contact the gateway." },
  payment_method_inactive: { shopperMessage: "This saved card can no longer be used. Please enter your card again.", merchantMessage: "The stored payment method was deleted (INVALID_REQUEST_PAYMENT_METHOD_INACTIVE)." },
  unknown: { shopperMessage: TRY_OTHER, merchantMessage: "The gateway returned a code this client does not know; see processing_code and response_message." },
}

export const PROCESSING_CODES: Record<string, OutcomeName> = {
  "0000": "approved",
  "1000": "declined",
  "1001": "failed",
  "1002": "pending",
  "1003": "canceled",
  "1004": "insufficient_funds",
  "1005": "session_expired",
  "2000": "invalid_request",
  "2013": "terminal_not_found",
  "2014": "terminal_inactive",
  "2015": "terminal_not_accepting",
  "2016": "terminal_refused",
  "2017": "merchant_inactive",
}

/** Decline and error codes that travel as text. Longest first: TRX_STATUS_DECLINED is a prefix of another. */
export const TEXT_CODES: ReadonlyArray<readonly [string, OutcomeName]> = [
  ["INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", "payment_method_inactive"],
  ["TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS", "insufficient_funds"],
  ["TRX_STATUS_DECLINED", "declined"],
  ["TRX_STATUS_FAILED", "failed"],
  ["TRX_STATUS_APPROVED", "approved"],
]

export const outcome = (name: OutcomeName, code: string | null = null): Outcome => ({ name, code, ...TABLE[name] })

/** The named outcome of one code (`1004`, `TRX_STATUS_FAILED`, ...), or `unknown`. */
export function outcomeForCode(code: string | null | undefined): Outcome {
  if (!code) return outcome("unknown")
  const byNumber = PROCESSING_CODES[code]
  if (byNumber) return outcome(byNumber, code)
  const byText = TEXT_CODES.find(([text]) => code === text)
  return byText ? outcome(byText[1], code) : outcome("unknown", code)
}

/** Finds a known text code anywhere in a string (messages such as "Declined: TRX_STATUS_FAILED"). */
export function findTextCode(text: string | null | undefined): (typeof TEXT_CODES)[number] | undefined {
  if (!text) return undefined
  return TEXT_CODES.find(([code]) => text.includes(code))
}

type TransactionLike = { status?: string | null; processing_code?: string | null; response_message?: string | null; errors?: unknown }

/** What the status alone says, for a code that is missing, unknown or contradicts the status. */
const BY_STATUS: Record<string, OutcomeName> = {
  APPROVED: "approved",
  PENDING: "pending",
  CREATED: "pending",
  CANCELED: "canceled",
  SESSION_EXPIRED: "session_expired",
  DECLINED: "declined",
  INVALID: "invalid_request",
}
const APPROVING: ReadonlySet<OutcomeName> = new Set(["approved"])

/**
 * The outcome of a finished transaction. A specific text code (insufficient funds, inactive method) wins over
 * the generic processing code it came with, so a shopper sees the precise reason. The status has the last word:
 * the spec allows `processing_code: null`, and an outcome must never contradict the status (an APPROVED payment
 * must not invite the shopper to pay again).
 */
export function outcomeOf(tx: TransactionLike): Outcome {
  const text = findTextCode(tx.response_message) ?? findTextCode(tx.errors ? JSON.stringify(tx.errors) : null)
  const byCode = tx.processing_code ? PROCESSING_CODES[tx.processing_code] : undefined
  let result =
    text && (!byCode || byCode === "declined" || byCode === "failed" || byCode === "invalid_request" || byCode === text[1])
      ? outcome(text[1], text[0])
      : outcomeForCode(tx.processing_code)
  const byStatus = tx.status ? BY_STATUS[tx.status] : undefined
  if (byStatus && (result.name === "unknown" || APPROVING.has(result.name) !== APPROVING.has(byStatus) || (byStatus === "pending") !== (result.name === "pending")))
    result = outcome(byStatus, tx.processing_code ?? null)
  return result
}
