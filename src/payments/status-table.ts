/**
 * The one place a gateway status becomes a Medusa PaymentSessionStatus.
 * Input: the transaction's status, its type (AUTHORIZE holds the money, PURCHASE and PAYMENT take it at once) and whether
 * the shopper still has a step to take (a 3-D Secure fingerprint/challenge, a redirect or a form post).
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { FINAL_STATUSES, TRANSACTION_STATUSES, type TransactionStatus } from "../gateway/schemas"
import { isSingleStep, SESSION_TRANSACTION_TYPES, type GatewayTransactionType } from "./session-data"

export type StatusInput = {
  status: TransactionStatus
  transactionType: GatewayTransactionType
  /** A next step for the shopper's browser is pending (Direct API 3-D Secure, redirect, form_submit). */
  awaitingShopper: boolean
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled gateway status: ${JSON.stringify(value)}`)
}

export function medusaStatusFor({ status, transactionType, awaitingShopper }: StatusInput): PaymentSessionStatus {
  switch (status) {
    case "CREATED":
      // The transaction exists but nothing was decided: the shopper has a step to take, or has not paid yet.
      return awaitingShopper ? PaymentSessionStatus.REQUIRES_MORE : PaymentSessionStatus.PENDING
    case "PENDING":
      // Waiting on the shopper (redirect/3DS) → requires_more; waiting on the provider → the order may be placed
      // and the webhook decides (Medusa's pending_authorization).
      return awaitingShopper ? PaymentSessionStatus.REQUIRES_MORE : PaymentSessionStatus.PENDING_AUTHORIZATION
    case "APPROVED":
      return isSingleStep(transactionType) ? PaymentSessionStatus.CAPTURED : PaymentSessionStatus.AUTHORIZED
    case "DECLINED":
    case "INVALID":
    case "SESSION_EXPIRED":
      return PaymentSessionStatus.ERROR
    case "CANCELED":
      return PaymentSessionStatus.CANCELED
    default:
      return assertUnreachable(status)
  }
}

/*
 * Sets read off the table above, so no other room restates a status list. FINAL_STATUSES is the gateway's own fact
 * (the spec says which statuses never change); what each status means for Medusa is this table's.
 */
function sessionStatusesOf(statuses: readonly TransactionStatus[]): PaymentSessionStatus[] {
  const found = statuses.flatMap((status) =>
    SESSION_TRANSACTION_TYPES.flatMap((transactionType) => [true, false].map((awaitingShopper) => medusaStatusFor({ status, transactionType, awaitingShopper }))),
  )
  return [...new Set(found)]
}

const FAILED_SESSION: readonly PaymentSessionStatus[] = [PaymentSessionStatus.ERROR, PaymentSessionStatus.CANCELED]

/** Final failures (DECLINED, INVALID, SESSION_EXPIRED, CANCELED): the table ends the session in error or canceled. */
export const FAILED_STATUSES: ReadonlySet<TransactionStatus> = new Set(
  TRANSACTION_STATUSES.filter((status) => sessionStatusesOf([status]).every((s) => FAILED_SESSION.includes(s))),
)
/** Takes a string: session data and gateway rows hold the status as text. */
export const isFailedStatus = (status: string): boolean => (FAILED_STATUSES as ReadonlySet<string>).has(status)

/** Session statuses whose outcome the gateway still owes (pending, requires_more, pending_authorization). */
export const UNSETTLED_SESSION_STATUSES: readonly PaymentSessionStatus[] = sessionStatusesOf(TRANSACTION_STATUSES.filter((s) => !FINAL_STATUSES.has(s)))
/** Session statuses of an approved payment (authorized, captured): never moved backwards. */
export const APPROVED_SESSION_STATUSES: ReadonlySet<string> = new Set(sessionStatusesOf(["APPROVED"]))
/** Medusa's authorizePaymentSession accepts only these (FRAMEWORK-NOTES 13): approved, or pending_authorization. */
export const MEDUSA_ACCEPTED_AT_AUTHORIZE: ReadonlySet<string> = new Set([...APPROVED_SESSION_STATUSES, PaymentSessionStatus.PENDING_AUTHORIZATION])

/** The gateway's transaction_type string, restricted to what this provider starts. */
export function gatewayTransactionType(value: string): GatewayTransactionType {
  if (value === "AUTHORIZE" || value === "PURCHASE" || value === "PAYMENT") return value
  throw new Error(`Transaction type ${value} is not a payment this provider starts (AUTHORIZE, PURCHASE or PAYMENT)`)
}
