/** A taxed store: Medusa's totals then carry a fraction of a cent (FRAMEWORK-NOTES 70). */
import { createTaxRegionsWorkflow } from "@medusajs/core-flows"
import { Modules } from "@medusajs/framework/utils"
import type { StoreSuite } from "./store"

/** A shipping address in the taxed region. */
export const BERLIN = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" }

/**
 * 19 % VAT on prices without tax for carts shipped to Germany: the seeded 25.50 EUR item is 30.345 EUR by Medusa's
 * totals. Once per store (a test run again finds it there).
 */
export async function taxGermany(s: StoreSuite): Promise<void> {
  const tax = s.container().resolve(Modules.TAX) as { listTaxRegions(filters: object): Promise<unknown[]> }
  if ((await tax.listTaxRegions({ country_code: "de" })).length) return
  await createTaxRegionsWorkflow(s.container()).run({ input: [{ country_code: "de", provider_id: "tp_system", default_tax_rate: { rate: 19, code: "VAT", name: "VAT" } }] })
}
