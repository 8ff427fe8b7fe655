/** The catalogue every HTTP test starts from, created through Medusa's own workflows. */
import type { MedusaContainer } from "@medusajs/framework/types"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
} from "@medusajs/core-flows"
import { FAMILIES } from "../../../src/payments/method-families"

export type StoreSeed = {
  publishableKey: string
  salesChannelId: string
  /** currency code → region id; each region has every PGS provider and pp_system_default enabled. */
  regions: Record<string, string>
  productId: string
  /** A digital item (no shipping profile, no inventory): carts complete without shipping. */
  variantId: string
  /** Unit price in major units per currency. */
  prices: Record<string, number>
}

/** The card provider, every method family (registered with id "pgs" in medusa-config.ts) and Medusa's own. */
export const PGS_FAMILY_PROVIDER_IDS = Object.values(FAMILIES).map((f) => `pp_${f.identifier}_pgs`)
const PROVIDERS = ["pp_pgs_pgs", ...PGS_FAMILY_PROVIDER_IDS, "pp_system_default"]
const REGIONS = [
  { currency_code: "eur", name: "Europe", countries: ["de", "fr"] },
  { currency_code: "pln", name: "Poland", countries: ["pl"] },
  { currency_code: "usd", name: "United States", countries: ["us"] },
  { currency_code: "inr", name: "India", countries: ["in"] },
]
const PRICES: Record<string, number> = { eur: 25.5, pln: 109.99, usd: 27, inr: 2250 }

export async function seedStore(container: MedusaContainer): Promise<StoreSeed> {
  const { result: channels } = await createSalesChannelsWorkflow(container).run({
    input: { salesChannelsData: [{ name: "Webshop" }] },
  })
  const salesChannelId = channels[0].id
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "Storefront", type: "publishable", created_by: "" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannelId] } })
  const { result: regions } = await createRegionsWorkflow(container).run({
    input: { regions: REGIONS.map((r) => ({ ...r, payment_providers: PROVIDERS })) },
  })
  const { result: products } = await createProductsWorkflow(container).run({
    input: {
      products: [
        {
          title: "Gift card design",
          status: "published",
          options: [{ title: "Format", values: ["Digital"] }],
          variants: [
            {
              title: "Digital",
              options: { Format: "Digital" },
              manage_inventory: false,
              prices: Object.entries(PRICES).map(([currency_code, amount]) => ({ currency_code, amount })),
            },
          ],
          sales_channels: [{ id: salesChannelId }],
        },
      ],
    },
  })
  return {
    publishableKey: keys[0].token,
    salesChannelId,
    regions: Object.fromEntries(regions.map((r: any) => [r.currency_code, r.id])),
    productId: products[0].id,
    variantId: products[0].variants[0].id,
    prices: PRICES,
  }
}
