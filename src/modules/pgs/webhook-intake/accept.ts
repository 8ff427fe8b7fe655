/**
 * One webhook delivery, from the request to the answer — the same steps whichever HTTP server received it (the
 * Medusa route POST /hooks/pgs/webhooks or the dedicated receiver, see receiver.ts):
 * verify JWT + digest on the raw bytes (401, nothing recorded) → record once in the event log (a duplicate is
 * answered 200 and dropped; never a 2xx before the row is committed) → the answer. The caller sends the answer and
 * then runs `afterAnswer`, which emits our own event: processing never delays the answer, and an event whose emit
 * is lost is picked up by the retry job (src/jobs) after its grace period.
 */
import type { IncomingMessage } from "node:http"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { IEventBusModuleService, Logger } from "@medusajs/framework/types"
import { markDeliveryUnsupported } from "../webhook-queue"
import { WebhookVerificationError, type WebhookVerifier } from "../../../gateway/webhooks"
import type { WebhookEvent } from "../../../gateway/schemas/webhooks"
import { PGS_WEBHOOK_RECEIVED, type PgsWebhookReceivedData } from "../events"
import { BodyTooLargeError, readRawBody } from "./raw-body"
import { describeUnsupported, describeVerified } from "./delivery"
import { recordDelivery } from "./recorder"
import { startStages, type DeliveryStages } from "./stages"
import { refusalTally } from "./refusals"
import { claimedTransaction, type ClaimedTransaction } from "./refused-by-key"
import { inSpan } from "../../../lib/tracing"

const MAX_BODY_BYTES = 1024 * 1024

/** What accepting needs; plain values and functions, so the receiver's worker thread can build one too. */
export type WebhookIntake = {
  /** The verifier for the configured webhook key; throws a configuration error when there is none. */
  verifier(): WebhookVerifier
  knex: Knex
  logger: Pick<Logger, "warn" | "error">
  /** Hand a new verified delivery on to processing (our own event); runs after the answer is sent. */
  received(id: string): Promise<void>
  /**
   * A delivery our key refused that looks in every way like the gateway's own: checked against the gateway
   * (refused-by-key.ts) before it may tell the admin the key is wrong. Not awaited: the 401 does not wait for it.
   */
  refusedByKey(claimed: ClaimedTransaction): void
}

export type WebhookAnswer = {
  status: number
  body: Record<string, unknown>
  afterAnswer?: () => Promise<void>
  /** Milliseconds per stage, for the answer's Server-Timing header. */
  stages?: DeliveryStages
}

export async function acceptWebhookRequest(req: IncomingMessage, intake: WebhookIntake): Promise<WebhookAnswer> {
  const stages = startStages()
  const started = performance.now()
  let raw: Buffer
  try {
    raw = await readRawBody(req, MAX_BODY_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { status: 413, body: { error: error.message } }
    throw error
  }
  stages.read = performance.now() - started
  const answer = await acceptDelivery(raw, req.headers.authorization, intake, stages)
  answer.stages = stages
  return answer
}

/** A span per delivery (src/lib/tracing.ts): the event's name once verified, the answer's status and what became of it. */
function acceptDelivery(raw: Buffer, authorization: string | undefined, intake: WebhookIntake, stages: DeliveryStages): Promise<WebhookAnswer> {
  return inSpan("pgs.webhook intake", { "pgs.body_bytes": raw.length }, async (span) => {
    const answer = await verifyAndRecord(raw, authorization, intake, stages, (event) => span.set({ "pgs.event": event.slice(0, 100) }))
    span.set({ "http.response.status_code": answer.status, "pgs.intake": intakeResult(answer) })
    return answer
  })
}

const intakeResult = (answer: WebhookAnswer) =>
  answer.status === 200 ? (answer.body.duplicate ? "duplicate" : answer.afterAnswer ? "recorded" : "recorded_unsupported") : answer.status === 401 ? "rejected" : "refused"

async function verifyAndRecord(
  raw: Buffer,
  authorization: string | undefined,
  intake: WebhookIntake,
  stages: DeliveryStages,
  named: (event: string) => void,
): Promise<WebhookAnswer> {
  let verifier: WebhookVerifier
  try {
    verifier = intake.verifier()
  } catch (error) {
    // Misconfigured store: 5xx so the gateway keeps retrying until the key is set; nothing verifies, so the admin is told.
    intake.logger.error(`PGS webhook received but verification is not configured: ${(error as Error).message}`)
    refusalTally(intake.knex, intake.logger).refused()
    return { status: 503, body: { error: "Webhook verification is not configured" } }
  }

  let event: WebhookEvent | null = null
  let key: string | null = null
  const verifying = performance.now()
  try {
    const verified = await verifier.verify(raw, authorization)
    event = verified.event
    key = verified.sha512
    named(event.event)
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    // Signed and digest-checked, but not an event we know: record it and answer 200 so it is not retried forever.
    if (error.reason !== "invalid_payload") {
      intake.logger.warn(`PGS webhook rejected (${error.reason})`)
      // Anyone can sign with a key of their own: only what the gateway confirms as its own tells of a wrong key.
      const claimed = error.reason === "bad_signature" ? claimedTransaction(raw, authorization) : null
      if (claimed) intake.refusedByKey(claimed)
      return { status: 401, body: { error: error.message } }
    }
  }
  refusalTally(intake.knex, intake.logger).verified()
  const recording = performance.now()
  stages.verify = recording - verifying

  const recorded = await recordDelivery(intake.knex, event && key ? describeVerified(event, key) : describeUnsupported(raw))
  stages.record = performance.now() - recording
  if (!recorded.is_new) return { status: 200, body: { received: true, duplicate: true } }
  if (!event) {
    // Kept for the record, closed so that nothing ever processes it.
    await markDeliveryUnsupported(intake.knex, recorded.id)
    return { status: 200, body: { received: true } }
  }
  return { status: 200, body: { received: true }, afterAnswer: () => intake.received(recorded.id) }
}

/** Our own event for each new delivery; the subscriber processes it. A lost emit is left to the retry job. */
export async function emitWebhookReceived(eventBus: IEventBusModuleService, logger: Pick<Logger, "warn">, ids: string[]): Promise<void> {
  try {
    await eventBus.emit(ids.map((id) => ({ name: PGS_WEBHOOK_RECEIVED, data: { id } satisfies PgsWebhookReceivedData })))
  } catch (error) {
    logger.warn(`PGS webhook events ${ids.join(", ")} recorded but not emitted (the retry job will run them): ${(error as Error).message}`)
  }
}
