/**
 * Who made a capture or refund, as Medusa recorded it: the capture's or refund's `created_by` (Medusa's admin
 * routes put the auth context's actor there: an admin user's id or a secret API key's id), the plugin's own marks
 * (a capture or refund made in the gateway's dashboard, a capture on fulfillment), or nothing. Never a guess: no
 * record says "not recorded by Medusa".
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { looseQuery } from "../../../../lib/loose-query"
import { EXTERNAL_REFUND_METADATA_KEY } from "../../../../modules/pgs/medusa-tables"
import { FULFILLMENT_CAPTURE_BY } from "../../../../workflows/capture-on-fulfillment"

export type Actor =
  | { kind: "user"; id: string; label: string }
  | { kind: "api_key"; id: string; label: string }
  | { kind: "gateway_dashboard"; label: string }
  | { kind: "capture_on_fulfillment"; fulfillment_id: string; label: string }
  | { kind: "not_recorded"; label: string }


/** A capture or refund row with what names its author. */
export type OperationRow = { id: string; created_by?: string | null; metadata?: Record<string, unknown> | null }

type UserRow = { id: string; email: string; first_name?: string | null; last_name?: string | null }
type KeyRow = { id: string; title: string; type?: string }

const NOT_RECORDED: Actor = { kind: "not_recorded", label: "not recorded by Medusa" }

/** created_by → actor for every row (by row id), reading the users and API keys named in one query each. */
export async function actorsOf(scope: MedusaContainer, rows: OperationRow[]): Promise<Map<string, Actor>> {
  const ids = [...new Set(rows.map((r) => r.created_by).filter((by): by is string => !!by))]
  const userIds = ids.filter((id) => id.startsWith("user_"))
  const keyIds = ids.filter((id) => id.startsWith("apk_"))
  const query = looseQuery(scope)
  const users = userIds.length ? ((await query.graph({ entity: "user", fields: ["id", "email", "first_name", "last_name"], filters: { id: userIds } })).data as UserRow[]) : []
  const keys = keyIds.length ? ((await query.graph({ entity: "api_key", fields: ["id", "title", "type"], filters: { id: keyIds } })).data as KeyRow[]) : []
  const result = new Map<string, Actor>()
  for (const row of rows) result.set(row.id, actorOf(row, users, keys))
  return result
}

function actorOf(row: OperationRow, users: UserRow[], keys: KeyRow[]): Actor {
  const by = row.created_by ?? null
  if (typeof row.metadata?.[EXTERNAL_REFUND_METADATA_KEY] === "string" || by?.startsWith("pgs:")) return { kind: "gateway_dashboard", label: "the gateway's dashboard" }
  if (!by) return NOT_RECORDED
  if (by.startsWith(FULFILLMENT_CAPTURE_BY)) {
    const fulfillment_id = by.slice(FULFILLMENT_CAPTURE_BY.length)
    return { kind: "capture_on_fulfillment", fulfillment_id, label: `the plugin, on fulfillment ${fulfillment_id}` }
  }
  const user = users.find((u) => u.id === by)
  if (user) {
    const name = [user.first_name, user.last_name].filter(Boolean).join(" ")
    return { kind: "user", id: by, label: name ? `${name} (${user.email})` : user.email }
  }
  const key = keys.find((k) => k.id === by)
  if (key) return { kind: "api_key", id: by, label: `API key “${key.title}”` }
  // An id Medusa recorded but no longer knows (a deleted user or key): shown as recorded.
  return { kind: by.startsWith("apk_") ? "api_key" : "user", id: by, label: by } as Actor
}
