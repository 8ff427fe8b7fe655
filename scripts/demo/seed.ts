/**
 * The demo store's catalogue, run once through `medusa exec`: a sales channel and publishable key, regions for
 * EUR, PLN, INR and USD with the PGS providers that fit each, a few digital products (no shipping needed at
 * checkout), and a warehouse with free delivery and returns and a few return reasons, so a shop admin can fulfill an
 * order and make the returns, exchanges and claims whose difference the plugin collects or refunds
 * (docs/money-after-checkout.md).
 * The demo runner reads the publishable key back from the database (database.ts).
 */
import type { ExecArgs } from "@medusajs/framework/types"
import {
  createApiKeysWorkflow,
  createProductsWorkflow,
  createRegionsWorkflow,
  createReturnReasonsWorkflow,
  createSalesChannelsWorkflow,
  createShippingOptionsWorkflow,
  createShippingProfilesWorkflow,
  createStockLocationsWorkflow,
  linkSalesChannelsToApiKeyWorkflow,
  linkSalesChannelsToStockLocationWorkflow,
  updateStoresWorkflow,
} from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

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

/**
 * The demo's regions and the payment providers each offers: the plugin's only. Not Medusa's pp_system_default,
 * which authorizes any amount without a gateway: with it anyone could place an order shown as paid for nothing.
 */
export function demoRegions() {
  return REGIONS.map((r) => ({
    name: r.name,
    currency_code: r.currency_code,
    countries: r.countries,
    payment_providers: [pgs("pgs"), pgs("pgs-hosted"), ...r.methods.map(pgs)],
  }))
}

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

  await createRegionsWorkflow(container).run({ input: { regions: demoRegions() } })

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
  await seedFulfillment(container, salesChannelId)
  // The reasons the dashboard's returns and claims offer (a fresh store has none: "No results").
  await createReturnReasonsWorkflow(container).run({
    input: {
      data: [
        { value: "damaged", label: "Damaged or defective" },
        { value: "wrong_item", label: "Wrong item sent" },
        { value: "not_as_described", label: "Not as described" },
        { value: "changed_mind", label: "Changed their mind" },
      ],
    },
  })
  // Last: the demo runner takes an existing key as "seeded"; a seed cut short before it asks for --reset.
  const { result: keys } = await createApiKeysWorkflow(container).run({
    input: { api_keys: [{ title: "PGS demo storefront", type: "publishable", created_by: "demo" }] },
  })
  await linkSalesChannelsToApiKeyWorkflow(container).run({ input: { id: keys[0].id, add: [salesChannelId] } })
}

/**
 * A warehouse the dashboard's "Fulfill items" can pick, with free delivery and free returns (Medusa's manual
 * provider) to every region's countries. The products have no shipping profile, so a cart needs no shipping method;
 * the options are for the shop admin's fulfillments, exchanges and claims.
 */
async function seedFulfillment(container: MedusaContainer, salesChannelId: string) {
  const link = container.resolve(ContainerRegistrationKeys.LINK)
  const fulfillment = container.resolve(Modules.FULFILLMENT)
  const { result: locations } = await createStockLocationsWorkflow(container).run({
    input: { locations: [{ name: "PGS demo warehouse", address: { address_1: "Hafenstraße 1", city: "Hamburg", country_code: "de" } }] },
  })
  const locationId = locations[0].id
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: locationId }, [Modules.FULFILLMENT]: { fulfillment_provider_id: "manual_manual" } })
  await linkSalesChannelsToStockLocationWorkflow(container).run({ input: { id: locationId, add: [salesChannelId] } })

  const { result: profiles } = await createShippingProfilesWorkflow(container).run({ input: { data: [{ name: "Digital delivery", type: "default" }] } })
  const set = await fulfillment.createFulfillmentSets({
    name: "PGS demo warehouse delivery",
    type: "shipping",
    service_zones: [{ name: "Every region", geo_zones: REGIONS.flatMap((r) => r.countries.map((country_code) => ({ type: "country" as const, country_code }))) }],
  })
  await link.create({ [Modules.STOCK_LOCATION]: { stock_location_id: locationId }, [Modules.FULFILLMENT]: { fulfillment_set_id: set.id } })

  const free = REGIONS.map((r) => ({ currency_code: r.currency_code, amount: 0 }))
  const option = (name: string, code: string, isReturn: boolean) => ({
    name,
    price_type: "flat" as const,
    provider_id: "manual_manual",
    service_zone_id: set.service_zones[0].id,
    shipping_profile_id: profiles[0].id,
    type: { label: name, description: name, code },
    prices: free,
    rules: [
      { attribute: "enabled_in_store", value: "true", operator: "eq" as const },
      { attribute: "is_return", value: String(isReturn), operator: "eq" as const },
    ],
  })
  await createShippingOptionsWorkflow(container).run({ input: [option("Delivery by email", "email-delivery", false), option("Return by email", "email-return", true)] })
}
