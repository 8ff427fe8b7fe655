/**
 * Medusa's current state of one PGS payment, for the order widget: what the order's payment collection and payment
 * hold now (captures and refunds summed exactly), not the session's status at authorization, which stays
 * "authorized" after a capture and a refund.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../../../../gateway"
import { medusaAmountInMinorUnits } from "../../../../lib/medusa-amount"
import { gatewaySums } from "../../../../lib/operation-shares"

type Amount = { id?: string; created_at?: Date | string | null; amount?: unknown; raw_amount?: unknown }
export type MedusaPaymentRow = Amount & { captured_at?: Date | string | null; canceled_at?: Date | string | null; captures?: Amount[] | null; refunds?: Amount[] | null }

export type MedusaPaymentState = "awaiting" | "authorized" | "partially_captured" | "captured" | "partially_refunded" | "refunded" | "canceled" | "failed"

export type MedusaPaymentView = {
  state: MedusaPaymentState
  /** Major units as decimal strings, in the payment's currency. */
  amount: string
  captured_amount: string
  refunded_amount: string
  /**
   * Medusa's exact rests, with a taxed fraction of a cent the amounts above show rounded: what "capture everything
   * left" and "refund everything" send, so Medusa's records end exact (30.345, not 30.35).
   */
  rest_to_capture: string
  rest_to_refund: string
  /**
   * What the gateway has left to capture and to refund ("10.50"), by the plugin's records of what it was sent: the
   * most a capture or refund can take. The amounts above rounded give the same, unless a taxed fraction of a cent
   * drifted (lib/operation-shares.ts).
   */
  left_to_capture: string
  left_to_refund: string
  currency_code: string
}

/**
 * "10.50" with the currency's decimals, as the gateway's amounts show (a taxed 30.345 shows as 30.35, as a storefront
 * shows it: lib/medusa-amount.ts); as it is when the currency is unknown.
 */
function decimal(n: ReturnType<typeof MathBN.convert>, currency: string): string {
  try {
    return fromMinorUnits(medusaAmountInMinorUnits(n.toFixed(), currency), currency)
  } catch {
    return n.toFixed()
  }
}

const value = (a: Amount): BigNumberInput => ((a.raw_amount ?? a.amount ?? 0) as BigNumberInput)

/** One capture's or refund's amount in major units ("10.50"). */
export const majorAmount = (a: Amount, currency: string) => decimal(MathBN.convert(value(a)), currency)
const sum = (rows: Amount[] | null | undefined) => MathBN.add(0, ...(rows ?? []).map(value))

/** No payment yet: the session says whether the shopper is still paying, failed or gave up. */
function sessionOnly(sessionStatus: string): MedusaPaymentState {
  if (sessionStatus === "error") return "failed"
  if (sessionStatus === "canceled") return "canceled"
  if (sessionStatus === "authorized" || sessionStatus === "captured") return "authorized"
  return "awaiting"
}

/** What the gateway has left of the payment, in major units; Medusa's amounts rounded when its currency is unknown. */
function leftAtGateway(amount: ReturnType<typeof MathBN.convert>, payment: MedusaPaymentRow, records: Record<string, unknown>, currency: string) {
  try {
    const sent = gatewaySums({ currency_code: currency, captures: payment.captures, refunds: payment.refunds }, records)
    const major = (minor: number) => fromMinorUnits(Math.max(minor, 0), currency)
    return { left_to_capture: major(medusaAmountInMinorUnits(amount.toFixed(), currency) - sent.captured), left_to_refund: major(sent.captured - sent.refunded) }
  } catch {
    const [captured, refunded] = [sum(payment.captures), sum(payment.refunds)]
    return { left_to_capture: decimal(MathBN.sub(amount, captured), currency), left_to_refund: decimal(MathBN.sub(captured, refunded), currency) }
  }
}

/** `records`: the payment's session fields, where the plugin's records of its captures and refunds are. */
export function medusaPaymentView(session: { status: string; amount: unknown; currency_code: string }, payment: MedusaPaymentRow | null, records: Record<string, unknown> = {}): MedusaPaymentView {
  const currency_code = session.currency_code
  if (!payment) {
    const zero = decimal(MathBN.convert(0), currency_code)
    const amount = MathBN.convert(session.amount as BigNumberInput)
    return { state: sessionOnly(session.status), amount: decimal(amount, currency_code), captured_amount: zero, refunded_amount: zero, rest_to_capture: amount.toFixed(), rest_to_refund: "0", left_to_capture: decimal(amount, currency_code), left_to_refund: zero, currency_code }
  }
  const amount = MathBN.convert(value(payment))
  const captured = sum(payment.captures)
  const refunded = sum(payment.refunds)
  let state: MedusaPaymentState
  if (payment.canceled_at) state = "canceled"
  else if (MathBN.gt(refunded, 0)) state = MathBN.gte(refunded, captured) ? "refunded" : "partially_refunded"
  else if (MathBN.gt(captured, 0) || payment.captured_at) state = MathBN.lt(captured, amount) && !payment.captured_at ? "partially_captured" : "captured"
  else state = "authorized"
  return {
    state,
    amount: decimal(amount, currency_code),
    captured_amount: decimal(captured, currency_code),
    refunded_amount: decimal(refunded, currency_code),
    rest_to_capture: MathBN.sub(amount, captured).toFixed(),
    rest_to_refund: MathBN.sub(captured, refunded).toFixed(),
    ...leftAtGateway(amount, payment, records, currency_code),
    currency_code,
  }
}
