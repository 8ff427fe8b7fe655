/**
 * Telling the PGS payment providers from a store's others, and naming them: for a storefront's own lists of
 * methods and its order pages (e.g. the Next.js starter's `paymentInfoMap`). Provider ids are
 * `pp_{identifier}_{id}`: identifier `pgs` for cards, `pgs-{family}` for the others (PGS_FAMILIES); `id` is the one
 * given in medusa-config (`pgs` in the README), so the card provider is `pp_pgs_pgs`.
 */
import { english } from "./i18n.js"
import { PGS_FAMILIES, providerLabel } from "./methods.js"

export { PGS_FAMILIES }

export type PgsProviderInfo = { title: string }

/** The provider's English name (the widget's own texts); undefined for a provider that is not PGS's. */
export function pgsProviderInfo(providerId?: string | null): PgsProviderInfo | undefined {
  const m = /^pp_pgs(?:-([a-z-]+))?_./.exec(providerId ?? "")
  const family = m?.[1]
  if (!m || (family && !PGS_FAMILIES.includes(family))) return undefined
  return { title: family ? providerLabel(`pp_pgs-${family}_`, english) : english("card") }
}

/** Whether this payment provider id is one of the 13 PGS providers (under any registration id). */
export const isPgsProvider = (providerId?: string | null): boolean => !!pgsProviderInfo(providerId)

/** Every PGS provider id for the medusa-config registration `id` (default `pgs`): card first, then the families. */
export const pgsProviderIds = (id = "pgs"): string[] => [`pp_pgs_${id}`, ...PGS_FAMILIES.map((f) => `pp_pgs-${f}_${id}`)]
