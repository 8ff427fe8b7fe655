/**
 * At boot, check that Medusa's own tables still have every column the plugin reads or writes (medusa-tables.ts):
 * a Medusa release that renamed one would otherwise break checkout quietly. Runs only where the store also runs
 * Medusa's payment module (the pgs module alone, as in its own tests, has none of these tables). Module loaders do
 * not run in `db:migrate`'s migration step, so a database that is still being migrated is not judged.
 */
import type { LoaderOptions } from "@medusajs/framework/types"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { liveMedusaColumns, missingMedusaColumns, SUPPORTED_MEDUSA } from "../medusa-tables"

export class MedusaSchemaError extends Error {
  override name = "MedusaSchemaError"
}

export function medusaSchemaProblem(missing: string[]): MedusaSchemaError | null {
  if (!missing.length) return null
  return new MedusaSchemaError(
    `medusa-payment-pgs supports Medusa ${SUPPORTED_MEDUSA}; this database lacks what it uses in Medusa's own tables: ${missing.join(", ")}. ` +
      "Run `medusa db:migrate` if it has not run yet; otherwise this Medusa version changed them: use a plugin version made for it.",
  )
}

/** defineConfig keys the resolved modules by name; the pgs module's own test runner configures only itself. */
export const runsPaymentModule = (config: { modules?: Record<string, unknown> } | undefined) => Boolean(config?.modules?.[Modules.PAYMENT])

export default async function checkMedusaTables({ container }: LoaderOptions) {
  const config = container.resolve<{ modules?: Record<string, unknown> } | undefined>(ContainerRegistrationKeys.CONFIG_MODULE, { allowUnregistered: true })
  const knex = container.resolve<Knex | undefined>(ContainerRegistrationKeys.PG_CONNECTION, { allowUnregistered: true })
  if (!knex || !runsPaymentModule(config)) return
  const problem = medusaSchemaProblem(missingMedusaColumns(await liveMedusaColumns(knex)))
  if (problem) throw problem
}
