/**
 * An amount Medusa computed, in the gateway's minor units. Medusa does not round what its tax arithmetic leaves: a
 * 19 % tax on 25.50 EUR makes a cart total of 30.345 (medusajs/medusa#14818), and its captures, refunds and order
 * sums carry the same fraction. The gateway takes whole minor units. Rounded half away from zero, as the storefront
 * shows the total (Intl.NumberFormat's default), so the shopper is charged what they saw: 30.35 EUR.
 * Amounts a person types (payouts) are not rounded: a fraction there is refused.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { fromMinorUnits, toMinorUnits, type MinorUnits, type MoneyInput } from "../gateway"

export const medusaAmountInMinorUnits = (amount: MoneyInput, currency: string): MinorUnits => toMinorUnits(amount, currency, "half-away-from-zero")

const exact = (amount: unknown) => MathBN.convert(amount as BigNumberInput).toFixed()

/** A row's or transaction's exact amount: its raw BigNumber's value, not the rounded number beside it. */
export const exactAmount = (a: { raw_amount?: unknown; amount?: unknown }): BigNumberInput =>
  ((a.raw_amount as { value?: string } | null | undefined)?.value ?? a.amount ?? 0) as BigNumberInput

/**
 * One part of a whole in the gateway's minor units: the parts made so far, this one included, rounded, less those
 * before it, rounded. Rounding each part alone drifts: three refunds of 10.115 would send 10.12 three times, a cent
 * more than the 30.35 the gateway took for 30.345. Shares add up to the whole, rounded.
 */
export function shareInMinorUnits(before: unknown, part: unknown, currency: string): number {
  const upTo = MathBN.add(before as BigNumberInput, part as BigNumberInput)
  return medusaAmountInMinorUnits(upTo.toFixed(), currency) - medusaAmountInMinorUnits(exact(before), currency)
}

/**
 * A whole (`total`: an authorized amount, or what was captured) of which `done` is already recorded, both Medusa's
 * exact amounts, and what the gateway has left of it (`restMinor`; by default the rest's share).
 */
export type Whole = { total: unknown; done: unknown; restMinor?: number }

/**
 * The gateway's amount as Medusa records it: when it is what the gateway has left of the whole, Medusa's exact rest
 * (3035 of 30.345 EUR is recorded as 30.345, so the order's paid total stays exact); otherwise the gateway's own whole
 * minor units (a part of it).
 */
export function medusaAmountOf(gatewayMinor: number, currency: string, { total, done, restMinor }: Whole): string {
  const rest = MathBN.sub(total as BigNumberInput, done as BigNumberInput)
  const isRest = MathBN.gt(rest, 0) && (restMinor ?? shareInMinorUnits(done, rest, currency)) === gatewayMinor
  return isRest ? rest.toFixed() : fromMinorUnits(gatewayMinor, currency)
}
