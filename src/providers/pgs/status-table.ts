/**
 * The one place a gateway status becomes a Medusa PaymentSessionStatus.
 * Input: the transaction's status, its type (AUTHORIZE holds the money, PURCHASE and PAYMENT take it at once) and whether
 * the shopper still has a step to take (a 3-D Secure fingerprint/challenge, a redirect or a form post).
 */
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { TransactionStatus } from "../../gateway/schemas"
import { isSingleStep, type GatewayTransactionType } from "./session-data"

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

/** The gateway's transaction_type string, restricted to what this provider starts. */
export function gatewayTransactionType(value: string): GatewayTransactionType {
  if (value === "AUTHORIZE" || value === "PURCHASE" || value === "PAYMENT") return value
  throw new Error(`Transaction type ${value} is not a payment this provider starts (AUTHORIZE, PURCHASE or PAYMENT)`)
}
