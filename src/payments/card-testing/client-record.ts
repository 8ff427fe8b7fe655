/**
 * Which client address last asked for a payment collection's sessions. A decline the gateway reports (its webhook
 * names only the session) then counts against that address as well as the cart and email it can read itself.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

const CLIENT_TABLE = "pgs_card_testing_client"

export async function rememberClient(knex: Knex, paymentCollectionId: string, address: string | null | undefined): Promise<void> {
  if (!address) return
  await knex(CLIENT_TABLE)
    .insert({ payment_collection_id: paymentCollectionId, client_address: address, updated_at: new Date() })
    .onConflict("payment_collection_id")
    .merge(["client_address", "updated_at"])
}

export async function clientAddressOf(knex: Knex, paymentCollectionId: string): Promise<string | null> {
  const row = await knex(CLIENT_TABLE).where({ payment_collection_id: paymentCollectionId }).first("client_address")
  return (row?.client_address as string | undefined) ?? null
}

/** Deletes up to `limit` records older than `before` (the gateway's declines come within seconds of the session). */
export async function pruneClients(knex: Knex, before: Date, limit = 10_000): Promise<number> {
  return knex(CLIENT_TABLE).whereIn("payment_collection_id", knex(CLIENT_TABLE).select("payment_collection_id").where("updated_at", "<", before).limit(limit)).del()
}
