/**
 * Which PGS providers can serve a cart: enabled in its region, allowed by their family's currency rule, and
 * taken by the terminal that would serve its currency. Decided here, on the server, so a storefront never offers
 * a method that initiate would refuse.
 */
import { VOUCHER_CODES } from "../../../../gateway/schemas"
import { familyOf, takesCurrency } from "../../../../payments/method-families"

import type { MethodNames } from "../../../../modules/pgs/queries"

/** `names`: the terminal admin's name for the method per locale ({ "sv-SE": "…" }), when set. */
/** `saved_card_consent` (card only): the checkout asks consent to later charges by the shop, naming it (route.ts). */
export type ServableMethod = {
  provider_id: string
  identifier: string
  names?: Record<string, string>
  voucher_codes?: readonly string[]
  saved_card_consent?: { store_name: string | null }
  /** Card only: the gateway's card-fields script, for the widget to ask for early (route.ts). */
  script_url?: string
}

/** pp_{identifier}_{registration id}: identifier `pgs` for cards, `pgs-{family}` for the others. */
const identifierOf = (providerId: string) => /^pp_(pgs(?:-[a-z-]+)?)_./.exec(providerId)?.[1]

/** `enabledMethods` null: the terminal takes every method. Card first, then the region's order. */
export function servableMethods(regionProviders: string[], currencyCode: string, enabledMethods: string[] | null, names: MethodNames = {}): ServableMethod[] {
  const methods: ServableMethod[] = []
  for (const provider_id of regionProviders) {
    const identifier = identifierOf(provider_id)
    if (!identifier || (enabledMethods && !enabledMethods.includes(identifier))) continue
    const named = Object.hasOwn(names, identifier) ? { names: names[identifier] } : {}
    if (identifier === "pgs") {
      methods.unshift({ provider_id, identifier, ...named })
      continue
    }
    const family = familyOf(identifier)
    if (!family || !takesCurrency(family, currencyCode)) continue
    methods.push({ provider_id, identifier, ...named, ...(identifier === "pgs-voucher-redirect" ? { voucher_codes: VOUCHER_CODES } : {}) })
  }
  return methods
}
