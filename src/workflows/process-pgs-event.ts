/**
 * Processes one recorded gateway event (by its id in the event log): parse it again at this boundary, run the
 * handler for its kind under a lock on its reference (events about one payment never interleave), and write the
 * outcome (or the error) back to the log. An event already processed is not processed again. Management events
 * that arrived before their approval (`deferred:*`) are re-run right after the approval is applied. A failure
 * counts an attempt and plans the next one (the retry job in src/jobs runs it).
 *
 * `runRecordedEvent` is how the subscriber and the retry job run an event: a few at a time per process.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { webhookEvent } from "../gateway"
import { PGS_MODULE } from "../modules/pgs"
import type PgsModuleService from "../modules/pgs/service"
import { fromStorableJson, fromStorableText } from "../modules/pgs/storable"
import { eventToRun, eventsToRunWith, nextAttemptAt, writeEventOutcome, type EventToRun } from "../modules/pgs/webhook-queue"
import { isApplied, isDeferred, type EventContext } from "./pgs-events/context"
import { dispatchEvent } from "./pgs-events/dispatch"
import { RECORDED_AT_CHECKOUT } from "./pgs-events/approval"
import { inSpan } from "../lib/tracing"
import { underEventLock } from "./pgs-events/event-lock"

export type ProcessPgsEventInput = { id: string }
export type ProcessPgsEventResult = { id: string; outcome: string | null; already_processed: boolean }

/** `read`: the row as just read under the lock, so it is not read a second time. */
async function runOne(ctx: EventContext, id: string, read?: EventToRun): Promise<string> {
  const row = read ?? (await eventToRun(knexOf(ctx), id))
  if (!row) throw new Error(`PGS webhook event ${id} is no longer in the event log`)
  // A span per event run (src/lib/tracing.ts): the event's name and outcome, never its payload.
  const event = fromStorableText(row.event).slice(0, 100)
  return inSpan(`pgs.event ${event}`, { "pgs.event": event, "pgs.attempt": row.attempts + 1 }, async (span) => {
    const outcome = await applyOne(ctx, id, row)
    span.set({ "pgs.outcome": outcome })
    return outcome
  })
}

const knexOf = (ctx: EventContext) => ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

async function applyOne(ctx: EventContext, id: string, row: EventToRun): Promise<string> {
  const knex = knexOf(ctx)
  const parsed = webhookEvent.safeParse({ event: fromStorableText(row.event), payload: fromStorableJson(row.payload) })
  if (!parsed.success) {
    await writeEventOutcome(knex, id, { processed_at: new Date(), outcome: "ignored:unsupported", error: null, next_attempt_at: null })
    return "ignored:unsupported"
  }
  try {
    const outcome = await dispatchEvent(ctx, parsed.data, row.received_at, id)
    await writeEventOutcome(knex, id, { processed_at: new Date(), outcome, error: null, next_attempt_at: null })
    return outcome
  } catch (error) {
    const attempts = row.attempts + 1
    await writeEventOutcome(knex, id, { outcome: "error", error: errorText(error).slice(0, 2000), attempts, next_attempt_at: nextAttemptAt(attempts, new Date()) })
    throw error
  }
}

/**
 * The error as a person reads it. A workflow run inside a handler (Medusa's or ours) rethrows its step's error as
 * a plain object ({ name, message, stack }), which String() would turn into "[object Object]".
 */
function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
    const { name, message } = error as { name?: unknown; message: string }
    return typeof name === "string" && name ? `${name}: ${message}` : message
  }
  return String(error)
}

/** Another event run on the way: its failure is kept on its own log row and must not stop this one. */
async function runOther(ctx: EventContext, id: string): Promise<string | null> {
  try {
    return await runOne(ctx, id)
  } catch (error) {
    ctx.logger.error(`PGS webhook event ${id} failed: ${(error as Error).message}`)
    return null
  }
}

/** Runs this event (after those waiting before it) and, once it created the payment, the events deferred until then. */
async function runInOrder(ctx: EventContext, row: EventToRun): Promise<string | null> {
  const rows = await eventsToRunWith(knexOf(ctx), row)
  const own = rows.find((r) => r.id === row.id)
  const deferred = rows.filter((r) => r.id !== row.id && isDeferred(r.outcome))
  for (const earlier of rows.filter((r) => r.id !== row.id && !r.processed_at && !r.outcome)) {
    // One that is deferred now (a capture before its approval) runs again once the payment exists.
    if (isDeferred(await runOther(ctx, earlier.id))) deferred.push(earlier)
  }
  if (!own || (own.processed_at && !isDeferred(own.outcome))) return own?.outcome ?? null
  const result = await runOne(ctx, own.id, own)
  // An approval applied now, or found already recorded by the checkout: the payment exists, so management events
  // that arrived before it can be applied.
  if ((isApplied(result) || result === RECORDED_AT_CHECKOUT) && row.reference) {
    deferred.sort((a, b) => a.received_at.getTime() - b.received_at.getTime())
    for (const waiting of deferred) await runOther(ctx, waiting.id)
  }
  return result
}

export const processPgsEventStep = createStep(
  "process-pgs-event-step",
  async (input: ProcessPgsEventInput, { container }): Promise<StepResponse<ProcessPgsEventResult>> => {
    const pgs = container.resolve<PgsModuleService>(PGS_MODULE)
    const row = await eventToRun(container.resolve(ContainerRegistrationKeys.PG_CONNECTION), input.id)
    if (!row) {
      container.resolve(ContainerRegistrationKeys.LOGGER).warn(`PGS webhook event ${input.id} is no longer in the event log; nothing to process`)
      return new StepResponse({ id: input.id, outcome: null, already_processed: true })
    }
    if (row.processed_at && !isDeferred(row.outcome))
      return new StepResponse({ id: row.id, outcome: row.outcome, already_processed: true })

    const ctx: EventContext = {
      container: container as MedusaContainer,
      pgs,
      client: pgs.gateway(),
      logger: container.resolve(ContainerRegistrationKeys.LOGGER),
    }
    // Subscribers may start in any order: under the lock, what arrived earlier for this reference runs first.
    const outcome = await underEventLock(container as MedusaContainer, row.reference ?? row.subject_id ?? row.id, () => runInOrder(ctx, row))
    return new StepResponse({ id: row.id, outcome, already_processed: false })
  },
)

export const processPgsEventWorkflowId = "process-pgs-event"

export const processPgsEventWorkflow = createWorkflow(processPgsEventWorkflowId, (input: ProcessPgsEventInput) => {
  return new WorkflowResponse(processPgsEventStep(input))
})

/**
 * Runs processing a few events at a time in this process, each after a turn of the event loop. With Medusa's
 * local event bus every emitted event starts its subscriber at once: a burst of webhooks would run all their
 * workflows together, hold every database connection and starve the webhook route's insert (measured: ack p50
 * 0.8 s, waiting for a connection). Bounded, the route keeps getting the event loop and free connections.
 */
class Lane {
  private running = 0
  private readonly waiting: Array<() => void> = []
  private readonly queued = new Set<string>()

  constructor(private readonly concurrency: number) {}

  has(id: string): boolean {
    return this.queued.has(id)
  }

  async run<T>(id: string, task: () => Promise<T>): Promise<T> {
    this.queued.add(id)
    try {
      if (this.running < this.concurrency) this.running++
      else await new Promise<void>((resolve) => this.waiting.push(resolve))
      try {
        await new Promise((resolve) => setImmediate(resolve))
        return await task()
      } finally {
        // Hand the slot to the next waiting event, or free it.
        const next = this.waiting.shift()
        if (next) next()
        else this.running--
      }
    } finally {
      this.queued.delete(id)
    }
  }
}

const PROCESSING_CONCURRENCY = 2
const lane = new Lane(PROCESSING_CONCURRENCY)

/**
 * Process one recorded event (the subscriber's and the retry job's shared path). Never throws: a failure is on
 * the event's log row (outcome "error", attempts, next_attempt_at) and in the log. An event already waiting or
 * running in this process is not queued twice (null).
 */
export async function runRecordedEvent(container: MedusaContainer, id: string): Promise<ProcessPgsEventResult | null> {
  if (lane.has(id)) return null
  return lane.run(id, async () => {
    const { result, errors } = await processPgsEventWorkflow(container).run({ input: { id }, throwOnError: false })
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    for (const e of errors) logger.error(`PGS webhook event ${id} failed: ${e.error?.message ?? e.error}`)
    return errors.length ? null : (result as ProcessPgsEventResult)
  })
}
