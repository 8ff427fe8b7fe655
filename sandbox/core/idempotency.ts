/**
 * Idempotency by reference, as the spec states it for payments and the client relies on for authorize, payouts,
 * sessions and hosted pages: reusing a reference on the terminal with the same amount and currency names the
 * existing object; with another amount or currency it is a validation error on `reference`.
 */
import { invalid, type SandboxRequest } from "./http"

type Order = { reference: string; amount: number; currency: string }

export function assertSameOrder(req: SandboxRequest, existing: Order, body: Order): void {
  if (existing.amount !== body.amount || existing.currency !== body.currency)
    throw invalid(req, "reference", "was already used on this terminal with another amount or currency", [body.reference])
}
