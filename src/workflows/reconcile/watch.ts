/**
 * Finds the gateway transactions the plugin knows that are not final — payment sessions pending or waiting for the
 * shopper longer than the configured minutes, payouts PENDING, sessions Medusa deleted that had a transaction — and puts each on the follow-up list as a check
 * (once per transaction). A session without a transaction id cannot be read: the status endpoint needs the id.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { existingKeys, openFollowUp } from "../../modules/pgs/follow-ups"
import { RETIRED_SESSION_TABLE } from "../../modules/pgs/models"
import type PgsModuleService from "../../modules/pgs/service"
import { isPgsProviderId } from "../../payments/session-data"
import { UNSETTLED_SESSION_STATUSES } from "../../payments/status-table"
import { looseQuery } from "../../lib/loose-query"
import { RECONCILE } from "./policy"
import { sessionFields } from "../../payments/stored-session-data"


type Unsettled = { transaction_id: string; reference: string; amount_minor: number; currency_code: string }

/**
 * Sessions unsettled since before `before` and changed within the last watchDays, oldest first, page after page
 * (keyset on updated_at; at most scanPages pages a run): a backlog of thousands is found in one run, and old
 * abandoned sessions cannot hide newer ones behind the first page.
 */
async function unsettledSessions(container: MedusaContainer, before: Date): Promise<Unsettled[]> {
  const found: Unsettled[] = []
  let since = new Date(before.getTime() - RECONCILE.watchDays * 86_400_000)
  for (let page = 0; page < RECONCILE.scanPages; page++) {
    const { data } = await looseQuery(container).graph({
      entity: "payment_session",
      fields: ["id", "provider_id", "status", "data", "updated_at"],
      filters: { status: UNSETTLED_SESSION_STATUSES, updated_at: { $lt: before, $gte: since } },
      pagination: { take: RECONCILE.scan, order: { updated_at: "ASC" } },
    })
    const rows = data as Array<{ provider_id: string; data: Record<string, unknown> | null; updated_at: string | Date }>
    for (const s of rows) {
      const d = sessionFields(s.data)
      if (!isPgsProviderId(s.provider_id) || typeof d.transaction_id !== "string" || typeof d.reference !== "string") continue
      found.push({ transaction_id: d.transaction_id, reference: d.reference, amount_minor: Number(d.amount_minor), currency_code: String(d.currency_code) })
    }
    if (rows.length < RECONCILE.scan) break
    // The next page starts at the last row's time ($gte: rows sharing it are read again, and deduplicated by the caller).
    const last = new Date(rows[rows.length - 1]!.updated_at)
    if (last.getTime() === since.getTime()) break
    since = last
  }
  return found
}

async function pendingPayouts(pgs: PgsModuleService, before: Date): Promise<Unsettled[]> {
  const rows = await pgs.listPgsPayouts({ status: "PENDING", updated_at: { $lt: before } }, { take: RECONCILE.scan, order: { updated_at: "ASC" } })
  return rows.flatMap((p) =>
    p.transaction_id ? [{ transaction_id: p.transaction_id, reference: p.reference, amount_minor: NaN, currency_code: p.currency_code }] : [],
  )
}

/** How long money taken for a session Medusa deleted is still looked for. */
const RETIRED_WATCH_DAYS = 7

/** Deleted sessions that had a transaction: the shopper may still pay it (then the money goes back). */
export async function retiredWithTransaction(knex: Knex, before: Date): Promise<Unsettled[]> {
  const rows = await knex(RETIRED_SESSION_TABLE)
    .whereNotNull("transaction_id")
    .whereNull("deleted_at")
    .where("retired_at", "<", before)
    .where("retired_at", ">", new Date(before.getTime() - RETIRED_WATCH_DAYS * 86_400_000))
    .orderBy("retired_at", "asc")
    .limit(RECONCILE.scan)
  return rows.map((r: Record<string, unknown>) => ({
    transaction_id: String(r.transaction_id),
    reference: String(r.reference),
    amount_minor: Number(r.amount_minor),
    currency_code: String(r.currency_code),
  }))
}

const checkKey = (transactionId: string) => `check:${transactionId}`

/** Puts what has been unsettled for longer than `afterMinutes` on the list; answers how many were new. */
export async function watchUnsettled(container: MedusaContainer, knex: Knex, pgs: PgsModuleService, now: Date, afterMinutes: number): Promise<number> {
  const before = new Date(now.getTime() - afterMinutes * 60_000)
  const found = [
    ...(await unsettledSessions(container, before)),
    ...(await pendingPayouts(pgs, before)),
    ...(await retiredWithTransaction(knex, before)),
  ]
  // Most are on the list already: one read of their keys, then only the new ones are opened.
  const known = new Set<string>()
  for (let i = 0; i < found.length; i += 1000) {
    for (const key of await existingKeys(knex, found.slice(i, i + 1000).map((u) => checkKey(u.transaction_id)))) known.add(key)
  }
  let opened = 0
  for (const u of found) {
    if (known.has(checkKey(u.transaction_id))) continue
    known.add(checkKey(u.transaction_id))
    const result = await openFollowUp(knex, {
      key: checkKey(u.transaction_id),
      kind: "check",
      transaction_id: u.transaction_id,
      reference: u.reference,
      amount_minor: Number.isInteger(u.amount_minor) ? u.amount_minor : null,
      currency_code: u.currency_code,
      next_check_at: now,
    })
    if (result.opened) opened++
  }
  return opened
}
