/**
 * The one gateway call of a payout (bank: POST /payout; card: authorize with OCT or PAYOUT), or a status read
 * when the gateway already named the transaction, turned into what the payout row should say. Gateway failures
 * are outcomes, not exceptions: a definite refusal (nothing created) is FAILED, a lost answer is PENDING with a
 * note, so the row always tells the truth and a retry with the same reference is safe.
 */
import {
  GatewayTimeoutError,
  GatewayUnavailableError,
  GatewayValidationError,
  GatewayProtocolError,
  isGatewayError,
  type PaymentMethodInput,
  type PayoutRequest,
  type PgsClient,
  type Transaction,
} from "../../gateway"
import type { PayoutProgress, PayoutSettings } from "../../modules/pgs/service"
import { openBeneficiary } from "./beneficiary"
import type { PreparedPayout } from "./prepare"

/**
 * Assumption: the spec requires browser_info for every card transaction and does not exempt OCT/PAYOUT, which
 * never run 3-D Secure. A payout is sent by this server, not by a shopper's browser, so the server describes itself.
 */
const SERVER_BROWSER_INFO = {
  user_agent: "medusa-payment-pgs (server-initiated payout)",
  accept_header: "application/json",
  java_enabled: false,
  color_depth: 24,
  screen_height: 0,
  screen_width: 0,
  time_zone_offset: 0,
  language: "en-US",
}

const LOST =
  "The gateway's answer was lost, so the payout may or may not exist there. Send the same request again (same reference: it cannot pay twice) or wait for the webhook."

/** What a gateway transaction says about the payout. */
export function progressOf(tx: Transaction): PayoutProgress {
  return {
    status: tx.status === "CREATED" ? "PENDING" : tx.status,
    transaction_id: tx.id,
    processing_code: tx.processing_code ?? null,
    response_message: tx.response_message ?? null,
    masked: tx.payment_method?.masked ?? null,
    card_brand: tx.payment_method?.brand ?? null,
    errors: tx.errors?.length ? tx.errors : null,
    note: null,
  }
}

/** The gateway's field names → the admin body's, so a refusal points at what the admin typed. */
const FIELD_NAMES: Array<[RegExp, string]> = [
  [/^beneficiary\.data\./, "beneficiary."],
  [/^payment_method\.data\.encrypted_card_number$/, "beneficiary.number"],
  [/^payment_method\.data\.encrypted_(cvv|expiration_month|expiration_year)$/, "beneficiary.$1"],
  [/^currency$/, "currency_code"],
]
const ourField = (property: string) => FIELD_NAMES.reduce((p, [re, to]) => p.replace(re, to), property)

/** A failure of the call itself → what we know about the payout. Anything that is not a gateway error is rethrown. */
export function progressOfFailure(error: unknown): PayoutProgress {
  if (!isGatewayError(error)) throw error
  if (error instanceof GatewayValidationError && !error.afterRepeat)
    return {
      status: "FAILED",
      errors: error.fields.map((f) => ({ field: ourField(f.property), message: f.message })),
      note: `The gateway refused the request; nothing was paid. ${error.message}`,
    }
  const unknown =
    error instanceof GatewayTimeoutError ||
    error instanceof GatewayProtocolError ||
    error instanceof GatewayValidationError ||
    (error instanceof GatewayUnavailableError && error.sent)
  if (unknown) return { status: "PENDING", note: `${LOST} (${error.message})` }
  // 400, 401, 403, 404, 429, or a connection that never opened: refused before anything happened.
  return { status: "FAILED", errors: null, note: `The gateway did not take the request; nothing was paid. ${error.message}` }
}

async function call(client: PgsClient, settings: PayoutSettings, p: PreparedPayout): Promise<Transaction> {
  const common = {
    reference: p.reference,
    terminal_id: p.terminal_id,
    description: p.description,
    currency: p.currency_code.toUpperCase(),
    amount: p.amount_minor,
    ...(p.metadata ? { metadata: p.metadata } : {}),
  }
  const beneficiary = openBeneficiary(settings.secret, p.reference, p.sealed)
  if (p.method === "bank_account")
    return (await client.payments.payout({ ...common, beneficiary: beneficiary as PayoutRequest["beneficiary"] })).transaction
  const result = await client.payments.authorize({
    ...common,
    transaction_type: p.transaction_type,
    payment_method: beneficiary as PaymentMethodInput,
    browser_info: SERVER_BROWSER_INFO,
    return_url: settings.returnUrl,
  })
  if (result.kind === "finished") return result.transaction
  // OCT and PAYOUT never run 3-D Secure: a next step is the gateway misbehaving, and the transaction exists.
  throw new GatewayProtocolError(`authorize ${p.transaction_type}: expected a result, got ${result.kind} (transaction ${result.transactionId})`)
}

/** Sends the payout (same reference on every attempt) and says what the row should become. */
export async function sendPayout(client: PgsClient, settings: PayoutSettings, p: PreparedPayout): Promise<PayoutProgress> {
  try {
    return progressOf(await call(client, settings, p))
  } catch (error) {
    return progressOfFailure(error)
  }
}

/** The current state of a payout the gateway already named; null when the read fails or finds nothing. */
export async function readPayout(client: PgsClient, transactionId: string): Promise<PayoutProgress | null> {
  const read = await client.status.transaction(transactionId).catch(() => null)
  return read ? progressOf(read.transaction) : null
}
