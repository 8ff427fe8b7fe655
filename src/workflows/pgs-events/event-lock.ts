/**
 * The lock every gateway event of one payment runs under, named by its reference (workflows/process-pgs-event.ts).
 * What else changes that payment's records from outside an event (refund-not-made.ts) takes it too, so neither reads
 * what the other is writing.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"

/** As long as one event may hold it. */
const EVENT_LOCK_TIMEOUT_SECONDS = 60

export const underEventLock = <T>(container: MedusaContainer, reference: string, run: () => Promise<T>): Promise<T> =>
  container.resolve(Modules.LOCKING).execute(`pgs-event:${reference}`, run, { timeout: EVENT_LOCK_TIMEOUT_SECONDS })
