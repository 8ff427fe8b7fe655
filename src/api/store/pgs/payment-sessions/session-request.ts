/**
 * Runs one of our server requests against a PGS payment session through the payment module, which hands it to
 * the provider's updatePayment (see payments/server-requests.ts): the module is the only writer of session
 * rows, and the provider verifies everything with the gateway before it records anything.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { withServerRequest, type ServerRequest } from "../../../../payments/server-requests"
import { isPgsProviderId } from "../../../../payments/session-data"
import { GATEWAY_UNAVAILABLE } from "../../../../payments/gateway-unavailable"
import { underEventLock } from "../../../../workflows/pgs-events/event-lock"

export type SessionView = { id: string; status: string; data: Record<string, unknown> }

/** The two payment-module calls we make, typed narrowly (the full module interface is costly for tsc). */
type PaymentModule = {
  retrievePaymentSession(id: string, config: { select: string[] }): Promise<{
    id: string
    provider_id: string
    data: Record<string, unknown> | null
    amount: unknown
    raw_amount?: unknown
    currency_code: string
    status: string
    payment_collection_id: string
  }>
  updatePaymentSession(input: { id: string; amount: unknown; currency_code: string; data: Record<string, unknown> }): Promise<{
    id: string
    status: string
    data: Record<string, unknown> | null
  }>
}

/** What the request becomes once the session is known (e.g. the client-info route adds the cart's payer). */
export type RequestFor = ServerRequest | ((session: { payment_collection_id: string }) => Promise<ServerRequest>)

type StoredSession = Awaited<ReturnType<PaymentModule["retrievePaymentSession"]>>

/** A PGS payment session by id: 404 when unknown, 400 when another provider's. */
export async function retrievePgsSession(scope: MedusaContainer, sessionId: string): Promise<StoredSession> {
  const session = await scope
    .resolve<PaymentModule>(Modules.PAYMENT)
    .retrievePaymentSession(sessionId, { select: ["id", "provider_id", "data", "amount", "raw_amount", "currency_code", "status", "payment_collection_id"] })
    .catch((error: unknown) => {
      if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND)
        throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${sessionId} was not found`)
      throw error
    })
  if (!isPgsProviderId(session.provider_id))
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment session ${sessionId} is not a PGS payment (provider ${session.provider_id})`)
  return session
}

export async function runSessionRequest(scope: MedusaContainer, sessionId: string, requestFor: RequestFor): Promise<SessionView> {
  // One writer per session at a time, the session read inside the lock: two attaches at once (a shopper's approved
  // transaction and someone else's declined one), or an attach and a webhook recording an earlier try, would
  // otherwise each write the data read before the other wrote. The webhook's lock, so they wait for each other.
  return underEventLock(scope, sessionId, () => runLocked(scope, sessionId, requestFor))
}

async function runLocked(scope: MedusaContainer, sessionId: string, requestFor: RequestFor): Promise<SessionView> {
  const payment = scope.resolve<PaymentModule>(Modules.PAYMENT)
  const session = await retrievePgsSession(scope, sessionId)
  const request = typeof requestFor === "function" ? await requestFor(session) : requestFor
  const updated = await payment.updatePaymentSession({
    id: session.id,
    // The stored amount as Medusa keeps it (raw, exact), so the provider sees no amount change.
    amount: session.raw_amount ?? session.amount,
    currency_code: session.currency_code,
    data: withServerRequest(session.data ?? {}, request),
  })
  return { id: updated.id, status: updated.status, data: updated.data ?? {} }
}

/**
 * Runs the request and answers { payment_session }. Medusa's error handler replaces every CONFLICT message with
 * a generic "retry with the Idempotency-Key" text, so a 409 is answered here with the provider's own reason; and
 * it has no 503, so a gateway that is down or refusing the store is answered here as what it is.
 */
export async function respondWithSession(req: MedusaRequest, res: MedusaResponse, request: RequestFor): Promise<void> {
  try {
    const payment_session = await runSessionRequest(req.scope, req.params.id, request)
    res.status(200).json({ payment_session })
  } catch (error) {
    if (!answeredSessionError(res, error)) throw error
  }
}

/**
 * A conflict (409, with the provider's reason) or the gateway away (503) answered as what it is; false for anything
 * else. `conflictCode`: names the conflict for a client that must tell it from Medusa's own 409s (attach-on-completion.ts).
 */
export function answeredSessionError(res: MedusaResponse, error: unknown, conflictCode?: string): boolean {
  if (error instanceof MedusaError && error.type === MedusaError.Types.CONFLICT) {
    res.status(409).json({ type: "conflict", ...(conflictCode ? { code: conflictCode } : {}), message: error.message })
    return true
  }
  if (error instanceof MedusaError && error.code === GATEWAY_UNAVAILABLE) {
    res.status(503).json({ type: "unavailable", code: GATEWAY_UNAVAILABLE, message: error.message })
    return true
  }
  return false
}
