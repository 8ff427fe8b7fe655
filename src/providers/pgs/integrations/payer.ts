/**
 * The payer of a redirect payment: what our client-info route read from the cart (billing address, email),
 * completed by the logged-in customer Medusa passes in the context. Missing required details are refused with
 * a message that says where they come from, before any gateway call.
 */
import type { PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { isPossibleE164 } from "../../../gateway"

export type Payer = Partial<Record<"email" | "first_name" | "last_name" | "phone" | "country" | "address" | "city" | "postal_code", string>>

export function payerOf(sealedPayer: Record<string, string> | undefined, context: PaymentProviderContext | undefined): Payer {
  const c = context?.customer
  const billing = c?.billing_address
  const fromCustomer: Payer = {
    email: c?.email ?? undefined,
    first_name: c?.first_name ?? undefined,
    last_name: c?.last_name ?? undefined,
    phone: c?.phone ?? billing?.phone ?? undefined,
    country: billing?.country_code ? billing.country_code.toUpperCase() : undefined,
  }
  const merged: Payer = { ...definedOnly(fromCustomer), ...definedOnly(sealedPayer ?? {}) }
  // The gateway checks phones strictly (E.164, possible number); an address-book phone that fails is left out.
  if (merged.phone && !isPossibleE164(merged.phone)) delete merged.phone
  return merged
}

export function requirePayer<K extends keyof Payer>(payer: Payer, fields: readonly K[], who: string): Required<Pick<Payer, K>> {
  const missing = fields.filter((f) => !payer[f])
  if (missing.length)
    throw new MedusaError(
      MedusaError.Types.INVALID_DATA,
      `${who} needs the payer's ${missing.join(", ")}: set the cart's email and billing address, then call POST /store/pgs/payment-sessions/:id/client-info before completing the cart`,
    )
  return payer as Required<Pick<Payer, K>>
}

/** The gateway's optional customer object: only the fields we have. */
export function customerOf(payer: Payer) {
  const customer = definedOnly({
    email: payer.email,
    first_name: payer.first_name,
    last_name: payer.last_name,
    phone: payer.phone,
    address: payer.address,
    city: payer.city,
    country: payer.country,
    postal_code: payer.postal_code,
  })
  return Object.keys(customer).length ? customer : undefined
}

/** Only the fields that hold a non-empty string. */
export function definedOnly<T extends Record<string, string | null | undefined>>(o: T): Record<string, string> {
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""))
}
