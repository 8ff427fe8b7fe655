/**
 * Enables the PGS payment providers on every region of the store (what Settings → Regions → Payment providers does
 * in the dashboard, for all regions at once): the card provider `pp_pgs_pgs`, the hosted payment page, and the
 * redirect methods that take the region's currency. Providers the region already has are kept.
 *
 *   npx medusa exec ./src/scripts/pgs-enable-providers.ts                 # the defaults below
 *   npx medusa exec ./src/scripts/pgs-enable-providers.ts pgs-upi pgs-wallets   # card + hosted page + these families
 *
 * Provider ids are `pp_{identifier}_{id}`, with `id: "pgs"` as in medusa-config (README "Installing into a store").
 * Run it after `medusa db:migrate` (the starter seeds its Europe region there) with the store not necessarily running.
 */
import type { ExecArgs } from "@medusajs/framework/types"
import { updateRegionsWorkflow } from "@medusajs/medusa/core-flows"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"

const ID = "pgs"
const provider = (identifier: string) => `pp_${identifier}_${ID}`

/** Redirect methods by currency (a method the gateway refuses for a currency is not offered there). */
const BY_CURRENCY: Record<string, string[]> = {
  eur: ["pgs-open-banking", "pgs-wallets", "pgs-bank-transfer", "pgs-wallet-one-redirect"],
  pln: ["pgs-provider-instant", "pgs-open-banking"],
  inr: ["pgs-upi", "pgs-qr-code", "pgs-bank-transfer", "pgs-wallets"],
  usd: ["pgs-qr-code", "pgs-wallet-one-redirect"],
}

export default async function enablePgsProviders({ container, args }: ExecArgs) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const query = container.resolve(ContainerRegistrationKeys.QUERY)
  const { data: regions } = await query.graph({ entity: "region", fields: ["id", "name", "currency_code", "payment_providers.id"] })
  if (!regions.length) throw new Error("No regions yet: run `npx medusa db:migrate` (the starter's seed creates them) or create one in the dashboard.")
  const { data: registered } = await query.graph({ entity: "payment_provider", fields: ["id", "is_enabled"] })
  const known = new Set(registered.map((p: { id: string }) => p.id))
  if (!known.has(provider("pgs")))
    throw new Error(`${provider("pgs")} is not registered: add the PGS provider to medusa-config.ts (modules → payment → providers) and start the store once.`)

  for (const region of regions) {
    const families = args?.length ? args : BY_CURRENCY[region.currency_code] ?? []
    const wanted = [provider("pgs"), provider("pgs-hosted"), ...families.map(provider)].filter((id) => known.has(id))
    const current = (region.payment_providers ?? []).map((p: { id: string } | null) => p?.id).filter(Boolean) as string[]
    const payment_providers = [...new Set([...current, ...wanted])]
    await updateRegionsWorkflow(container).run({ input: { selector: { id: region.id }, update: { payment_providers } } })
    logger.info(`PGS: region ${region.name} (${region.currency_code.toUpperCase()}) pays with ${payment_providers.join(", ")}`)
  }
}
