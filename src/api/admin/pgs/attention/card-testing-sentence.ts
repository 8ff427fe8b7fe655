/** The "Card testing suspected" item's sentence: what the guard saw since the item opened, read when it is shown. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../modules/pgs"
import type { FollowUpRow } from "../../../../modules/pgs/follow-ups"
import type PgsModuleService from "../../../../modules/pgs/service"
import { cardTestingSummary } from "../../../../payments/card-testing/alert"

const listOf = (items: string[], total?: number) => `${items.join(", ")}${total !== undefined && total > items.length ? ", …" : ""}`
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
const atMinute = (date: Date | string) => `${new Date(date).toISOString().slice(0, 16).replace("T", " ")} UTC`

export async function cardTestingSentence(container: MedusaContainer, row: FollowUpRow): Promise<string> {
  const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const { options } = container.resolve<PgsModuleService>(PGS_MODULE).cardTestingSettings()
  // From one decline window before the item opened: the declines that led to it are part of the story.
  const from = new Date(new Date(row.created_at).getTime() - options.declineWindowMinutes * 60_000)
  const seen = await cardTestingSummary(knex, from)
  const who = [
    seen.addressCount ? `from ${plural(seen.addressCount, "address", "addresses")} (${listOf(seen.addresses, seen.addressCount)})` : null,
    seen.cartCount ? `on ${plural(seen.cartCount, "cart", "carts")} (${listOf(seen.carts, seen.cartCount)})` : null,
    seen.emails ? `with ${plural(seen.emails, "email or customer", "emails or customers")}` : null,
  ].filter(Boolean)
  const what =
    `Since ${atMinute(from)} (${options.declineWindowMinutes} minutes before this opened) the card-testing guard blocked a client ${plural(seen.refused, "time", "times")} ` +
    `and the gateway declined ${plural(seen.declines, "attempt", "attempts")} that reached it${who.length ? `, ${who.join(" ")}` : ""}.`
  const rules =
    `Declines are counted per ${options.declineWindowMinutes} minutes, attempts per ${options.attemptWindowMinutes}; ` +
    `a client at a limit is refused for ${options.blockMinutes} minutes.`
  if (row.state !== "needs_person") return `${what} ${rules}`
  return (
    `${what} ${rules} Someone may be testing stolen cards on the checkout. If it goes on, switch on ` +
    `"Cards for logged-in customers only" in Settings → Payment Gateway. Mark as handled once it has stopped; a new block opens this again.`
  )
}
