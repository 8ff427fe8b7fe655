/**
 * One way a shopper pays: embedded card fields, the Direct API, the gateway's hosted page, or a redirect to a
 * method's provider. The provider finds a session's integration by its `integration` field and asks it only
 * what differs between them; everything the four share (management, attaching, status reads) is elsewhere.
 */
import type { AuthorizePaymentOutput, PaymentProviderContext, UpdatePaymentOutput } from "@medusajs/framework/types"
import type { Transaction } from "../../../gateway"
import type { MethodFamily } from "../../../payments/method-families"
import type { SealedSecrets } from "../../../payments/seal"
import type { ServerRequest } from "../../../payments/server-requests"
import type { GatewayTransactionType, PgsSessionData } from "../../../payments/session-data"
import type { ProviderDeps } from "../deps"
import type { InitiateInput } from "../initiate-input"
import type { TerminalChoice } from "../terminal"
import type { PreparedMethod } from "./direct-api/payment-method"

/** A new attempt before its integration adds anything: who pays how much, at which terminal, as which transaction. */
export type AttemptStart = {
  sessionId: string
  reference: string
  attempt: number
  terminal: TerminalChoice
  currency: string
  amountMinor: number
}

/** What the shopper chose, as the provider's family read it: a card payment, or a method family's payment. */
export type ShopperChoice =
  | { kind: "card"; input: InitiateInput }
  | { kind: "family"; family: MethodFamily; methodData: Record<string, string>; payer?: Record<string, string>; type: string; payLink?: boolean }

export type NewAttempt = {
  start: AttemptStart
  transactionType: GatewayTransactionType
  choice: ShopperChoice
  context: PaymentProviderContext | undefined
  /** A restart (the amount or currency changed): the attempt before, and its opened secrets. */
  previous?: { data: PgsSessionData; secrets: SealedSecrets }
  /** Direct API: the shopper's payment method, checked (a saved card read) while the terminal was read. */
  directMethod?: Promise<PreparedMethod>
}

/** The 3-D Secure steps our store and hook routes send for the Direct API. */
export type ContinuationRequest = Extract<ServerRequest, { kind: "request_authentication" | "authentication_completed" | "cres" }>

export interface Integration {
  readonly name: PgsSessionData["integration"]
  /** The session data of a new attempt (attempt 1, or the next one carrying what the shopper chose). */
  start(deps: ProviderDeps, attempt: NewAttempt): Promise<PgsSessionData>
  /** Cart completion before any transaction exists: start the payment, or say what the shopper must still do. */
  authorize(deps: ProviderDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput>
  /** The next step of an authentication the gateway asked for; integrations without one leave it out. */
  continue?(deps: ProviderDeps, current: PgsSessionData, request: ContinuationRequest): Promise<UpdatePaymentOutput>
  /** Whether an open (CREATED/PENDING) transaction still waits on the shopper rather than on the gateway. */
  awaitingShopper(current: PgsSessionData, tx: Transaction): boolean
  /** Whether the storefront may name the transaction a gateway page made (checked with the gateway before use). */
  readonly takesTransactionFromOutside: boolean
  /** A capture of a payment that took the money in one step: throws while the money is not taken (default: done). */
  confirmSingleStepCapture?(current: PgsSessionData): void
}
