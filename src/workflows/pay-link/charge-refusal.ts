/**
 * Why a saved-card charge took nothing, in words for the shop's admin (not the shopper's "try another card"): read
 * from the gateway's code the session recorded. Always ends by offering the pay link (the customer can then pay
 * themselves, with 3-D Secure or another card).
 */
import { outcomeForCode, type OutcomeName } from "../../gateway"

const WHY: Partial<Record<OutcomeName, string>> = {
  declined: "the bank declined it",
  insufficient_funds: "the bank declined it for insufficient funds",
  failed: "the payment failed at the gateway",
  canceled: "the payment was canceled",
  payment_method_inactive: "the saved card can no longer be used",
}

export function refusalMessage(error: { code?: unknown } | null | undefined): string {
  const outcome = outcomeForCode(typeof error?.code === "string" ? error.code : null)
  const why = WHY[outcome.name] ?? (outcome.name === "unknown" ? "the bank or the gateway refused it" : outcome.merchantMessage.replace(/\.$/, ""))
  return `The card was not charged: ${why}. Send the customer the pay link instead.`
}
