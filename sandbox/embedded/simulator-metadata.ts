/**
 * Sessions carry no metadata in the spec, so an embedded payment cannot ask for the full 3-D Secure simulator
 * (metadata simulated_flow) the way a Direct API authorize can. Assumption / sandbox extension: a test control
 * attaches simulator metadata to one session; every card payment of that session then carries it.
 *   POST /_sandbox/embedded/sessions/:id/metadata  {"simulated_flow": "VERSIONING_FINGERPRINT_Y_CHALLENGE", ...}
 * Without it, the card number alone picks the scenario (the simplified simulator's test cards).
 */
import { readSimulatorMetadata } from "../cards/metadata"
import type { SandboxContext } from "../core/context"
import { invalid, json, notFound, parseJsonBody, type Reply, type SandboxRequest } from "../core/http"
import type { PaymentSessionRecord } from "../core/types"

const attached = new WeakMap<PaymentSessionRecord, Record<string, unknown>>()

export const simulatorMetadataOf = (session: PaymentSessionRecord): Record<string, unknown> => ({ ...(attached.get(session) ?? {}) })

export function attachSimulatorMetadata(ctx: SandboxContext, req: SandboxRequest): Reply {
  const session = ctx.store.sessions.get(req.params.id)
  if (!session) throw notFound("Session not found")
  const body = parseJsonBody(req)
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid(req, "body", "must be a JSON object")
  const metadata = body as Record<string, unknown>
  readSimulatorMetadata(metadata) // a typo is a 422 now, not a surprise at payment time
  attached.set(session, metadata)
  return json(200, { session_id: session.id, metadata })
}

/** Attached metadata by session id, as --state-dir keeps it (sandbox/state). */
export function exportSimulatorMetadata(ctx: SandboxContext): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {}
  for (const session of ctx.store.sessions.values()) {
    const metadata = attached.get(session)
    if (metadata) out[session.id] = metadata
  }
  return out
}
export function importSimulatorMetadata(ctx: SandboxContext, saved: Record<string, Record<string, unknown>>): void {
  for (const [id, metadata] of Object.entries(saved)) {
    const session = ctx.store.sessions.get(id)
    if (session) attached.set(session, metadata)
  }
}
