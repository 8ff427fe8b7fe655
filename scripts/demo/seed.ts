/**
 * The demo store's catalogue, run once through `medusa exec`: a sales channel and publishable key, regions for
 * EUR, PLN, INR and USD with the PGS providers that fit each, and a few digital products (no shipping needed).
 * The demo runner reads the publishable key back from the database (database.ts).
 */
import type { ExecArgs } from "@medusajs/framework/types"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createSalesChannelsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  updateStoresWorkflow,
} from "@medusajs/core-flows"
import { Modules } from "@medusajs/framework/utils"

const pgs = (identifier: string) => `pp_${identifier}_pgs`

/** Each region gets the card provider, the hosted page and the local methods its currency takes. */
const REGIONS = [
  {
    name: "Europe",
    currency_code: "eur",
    countries: ["de", "fr", "nl"],
    methods: ["pgs-open-banking", "pgs-wallets", "pgs-bank-transfer", "pgs-openbanking-redirect", "pgs-wallet-one-redirect", "pgs-wallet-two-redirect", "pgs-voucher-redirect"],
  },
  { name: "Poland", currency_code: "pln", countries: ["pl"], methods: ["pgs-provider-instant", "pgs-open-banking", "pgs-voucher-redirect"] },
  { name: "India", currency_code: "inr", countries: ["in"], methods: ["pgs-upi", "pgs-qr-code", "pgs-bank-transfer", "pgs-wallets"] },
  { name: "United States", currency_code: "usd", countries: ["us"], methods: ["pgs-bank-scheme-redirect", "pgs-qr-code", "pgs-wallet-one-redirect"] },
]

const PRODUCTS = [
  { title: "Sandbox Gift Card", handle: "sandbox-gift-card", prices: { eur: 25, pln: 109.99, inr: 2250, usd: 27 } },
  { title: "Field Guide to 3-D Secure (e-book)", handle: "field-guide-3ds", prices: { eur: 12.5, pln: 54.5, inr: 1099, usd: 13.99 } },
  { title: "Webhook Poster (digital print)", handle: "webhook-poster", prices: { eur: 7.99, pln: 34.99, inr: 699, usd: 8.49 } },
]

export default async function seedDemo({ container }: ExecArgs) {
  const { result: channels } = await createSalesChannelsWorkflow(container).run({ input: { salesChannelsData: [{ name: "PGS demo webshop" }] } })
  const salesChannelId = channels[0].id

  const [store] = await container.resolve(Modules.STORE).listStores()
  await updateStoresWorkflow(container).run({
    input: {
      selector: { id: store.id },
      update: {
        default_sales_channel_id: salesChannelId,
        supported_currencies: REGIONS.map((r, i) => ({ currency_code: r.currency_code, is_default: i === 0 })),
      },
    },
  })

  await createRegionsWorkflow(container).run({
    input: {
      regions: REGIONS.map((r) => ({
        name: r.name,
        currency_code: r.currency_code,
        countries: r.countries,
        payment_providers: [pgs("pgs"), pgs("pgs-hosted"), ...r.methods.map(pgs), "pp_system_default"],
      })),
    },
  })

  await createProductsWorkflow(container).run({
    input: {
      products: PRODUCTS.map((p) => ({
        title: p.title,
        handle: p.handle,
        status: "published" as const,
        options: [{ title: "Format", values: ["Digital"] }],
        variants: [
          {
            title: "Digital",
            options: { Format: "Digital" },
            manage_inventory: false,
            prices: Object.entries(p.prices).map(([currency_code, amount]) => ({ currency_code, amount })),
          },
        ],
        sales_channels: [{ id: salesChannelId }],
      })),
    },
  })
  // Last: the demo runner takes an existing key as "seeded"; a seed cut short before it asks for --reset.
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "PGS demo storefront", type: "publishable", created_by: "demo" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannelId] } })
}
