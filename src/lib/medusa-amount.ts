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
 * A capture or refund row's share of its payment's rows (Medusa's, in the order it made them), in minor units: the
 * rows up to and including it rounded, less what the gateway was sent for those before it. What was sent is the
 * provider's record of a row (`sent`, by row id) where it has one, else that row's own share. So the shares add up to
 * the whole rounded even when a row with a fraction disappeared after a later share counted it (a declined refund
 * deleted while another was in flight): the next row sends the cent the drift left.
 */
export function shareOfRow(rows: ReadonlyArray<{ id: string; amount: string }>, rowId: string, currency: string, sent: ReadonlyMap<string, number> = new Map()): number | null {
  let before = "0"
  let sentBefore = 0
  for (const row of rows) {
    const upTo = MathBN.add(before, row.amount).toFixed()
    const share = medusaAmountInMinorUnits(upTo, currency) - sentBefore
    if (row.id === rowId) return share
    sentBefore += sent.get(row.id) ?? share
    before = upTo
  }
  return null
}

/**
 * The gateway's amount as Medusa records it, of a whole (`total`: an authorized amount, or what was captured) of
 * which `done` is already recorded: when it is the rest's share, Medusa's exact rest (3035 of 30.345 EUR is recorded
 * as 30.345, so the order's paid total stays exact); otherwise the gateway's own whole minor units (a part of it).
 */
export function medusaAmountOf(gatewayMinor: number, currency: string, { total, done }: { total: unknown; done: unknown }): string {
  const rest = MathBN.sub(total as BigNumberInput, done as BigNumberInput)
  return shareInMinorUnits(done, rest, currency) === gatewayMinor ? rest.toFixed() : fromMinorUnits(gatewayMinor, currency)
}
