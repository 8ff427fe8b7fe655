/**
 * What every part of the provider works with: the shared gateway client, the sealer, the payment module's own
 * database connection (null in a container without one), the parsed options and Medusa's logger.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { PgsClient } from "../../gateway"
import { sharedGatewayClient } from "../../modules/pgs/gateway"
import type { PgsProviderOptions } from "../../modules/pgs/options"
import { Sealer } from "../../payments/seal"

export type Logger = { info(m: string): void; warn(m: string): void; error(m: string): void; debug?(m: string): void }

export type ProviderDeps = {
  readonly client: PgsClient
  readonly sealer: Sealer
  readonly knex: Knex | null
  readonly options: PgsProviderOptions
  readonly logger: Logger
}

export function providerDeps(cradle: Record<string, unknown>, options: PgsProviderOptions): ProviderDeps {
  const logger = optional<Logger>(cradle, "logger") ?? console
  return {
    // The card and method-family providers, and the pgs module, share one client: one token, one connection pool.
    client: sharedGatewayClient(options, logger),
    sealer: new Sealer(options.clientSecret),
    // The payment module's own connection: our module's tables and Medusa's capture rows are read through it.
    knex: optional<Knex>(cradle, "__pg_connection__"),
    options,
    logger,
  }
}

function optional<T>(cradle: Record<string, unknown>, key: string): T | null {
  try {
    return (cradle[key] as T) ?? null
  } catch {
    return null // awilix throws for keys that are not registered
  }
}
