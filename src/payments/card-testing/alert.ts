/**
 * What the guard saw, for the shop admin: each decline the gateway reported for a client and each block a client's
 * requests started (not each request refused while it lasts), one row each (pgs_card_testing_event), and one "Card
 * testing suspected" item on Needs attention (key `card-testing`, `checks` counting blocks) opened by the first block
 * and open until a person marks it handled; a block after that opens it again with a fresh count.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import { FOLLOW_UP_TABLE } from "../../modules/pgs/models/follow-up"
import type { CardTestingClient } from "./rules"

export const CARD_TESTING_KEY = "card-testing"
const EVENT_TABLE = "pgs_card_testing_event"

export type GuardEventKind = "decline" | "refused"

/**
 * `webhookEventId`: the gateway event a decline came from. False when that event's decline is recorded already (the
 * event processed again): it is not counted a second time.
 */
export async function recordGuardEvent(knex: Knex, kind: GuardEventKind, client: CardTestingClient & { collection?: string | null }, webhookEventId?: string): Promise<boolean> {
  const inserted = await knex(EVENT_TABLE)
    .insert({
      kind,
      client_address: client.address ?? null,
      cart_id: client.cart ?? null,
      payment_collection_id: client.collection ?? null,
      email: client.email?.toLowerCase() ?? null,
      webhook_event_id: webhookEventId ?? null,
    })
    .onConflict(knex.raw(`("webhook_event_id") where "webhook_event_id" is not null`))
    .ignore()
    .returning("id")
  return inserted.length > 0
}

/** Opens the item, or counts one more block on it. */
export async function openCardTestingItem(knex: Knex): Promise<void> {
  const now = new Date()
  await knex.raw(
    `insert into "${FOLLOW_UP_TABLE}" ("id", "key", "kind", "state", "checks", "note", "created_at", "updated_at")
     values (?, ?, 'card_testing', 'needs_person', 1, null, ?, ?)
     on conflict ("key") where "deleted_at" is null do update set
       "checks" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."checks" + excluded."checks" else excluded."checks" end,
       "created_at" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."created_at" else excluded."created_at" end,
       "state" = 'needs_person', "resolved_at" = null, "updated_at" = excluded."updated_at"`,
    [generateEntityId(undefined, "pgsfu"), CARD_TESTING_KEY, now, now],
  )
}

export type CardTestingSummary = {
  since: string
  /** Blocks the guard started (the requests refused while they lasted never reached the gateway). */
  refused: number
  /** Declines the gateway reported: attempts that did reach it. */
  declines: number
  /** The addresses and carts involved, all counted, the first ten of each listed (most events first). */
  addressCount: number
  addresses: string[]
  cartCount: number
  carts: string[]
  emails: number
}

const LISTED = 10

/** What the guard saw since `since`: counts, and the addresses and carts involved (the first ten of each). */
export async function cardTestingSummary(knex: Knex, since: Date): Promise<CardTestingSummary> {
  const base = () => knex(EVENT_TABLE).where("at", ">=", since)
  const [counts] = await base().select(
    knex.raw(`count(*) filter (where kind = 'refused')::int as refused`),
    knex.raw(`count(*) filter (where kind = 'decline')::int as declines`),
    knex.raw(`count(distinct email)::int as emails`),
    knex.raw(`count(distinct client_address)::int as addresses`),
    knex.raw(`count(distinct coalesce(cart_id, payment_collection_id))::int as carts`),
  )
  const distinct = async (column: string) =>
    (await base().whereNotNull(column).groupBy(column).orderByRaw("count(*) desc").limit(LISTED).select(column)).map((r: Record<string, string>) => r[column]!)
  const carts = await base().select(knex.raw(`coalesce(cart_id, payment_collection_id) as cart`)).whereRaw(`coalesce(cart_id, payment_collection_id) is not null`).groupByRaw("1").orderByRaw("count(*) desc").limit(LISTED)
  return {
    since: since.toISOString(),
    refused: counts?.refused ?? 0,
    declines: counts?.declines ?? 0,
    emails: counts?.emails ?? 0,
    addressCount: counts?.addresses ?? 0,
    addresses: await distinct("client_address"),
    cartCount: counts?.carts ?? 0,
    carts: carts.map((r: { cart: string }) => r.cart),
  }
}

/** Deletes up to `limit` events older than `before` (the retention job, every hour): how many it deleted. */
export async function pruneGuardEvents(knex: Knex, before: Date, limit = 10_000): Promise<number> {
  return knex(EVENT_TABLE).whereIn("id", knex(EVENT_TABLE).select("id").where("at", "<", before).limit(limit)).del()
}
