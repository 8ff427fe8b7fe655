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

/**
 * The gateway's amount as Medusa records it against `medusaAmount`: Medusa's own exact amount when the gateway's is
 * that amount rounded (the whole of a taxed total: 3035 for 30.345 EUR, recorded as 30.345, since Medusa refuses to
 * capture more than it authorized), else the gateway's own (a part of it, in whole minor units).
 */
export function medusaAmountOf(gatewayMinor: number, currency: string, medusaAmount: MoneyInput): string {
  const exact = MathBN.convert(medusaAmount as BigNumberInput).toFixed()
  return medusaAmountInMinorUnits(exact, currency) === gatewayMinor ? exact : fromMinorUnits(gatewayMinor, currency)
}
