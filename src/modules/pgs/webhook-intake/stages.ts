/**
 * Where a delivery's time goes inside the endpoint, sent back as a Server-Timing header (durations only, no ids):
 * bench:checkout reads it to print stage percentiles beside the acknowledgement time the sender sees.
 */
export type DeliveryStages = {
  /** Reading the body off the socket. */
  read: number
  /** JWT signature, digest and event schema. */
  verify: number
  /** Waiting for the commit that holds the delivery's row (the shared INSERT in flight before it, then its own). */
  record: number
}

export const startStages = (): DeliveryStages => ({ read: 0, verify: 0, record: 0 })

/** `read;dur=0.12, verify;dur=0.40, record;dur=6.10` (milliseconds, the header's unit). */
export const serverTiming = (s: DeliveryStages) => `read;dur=${s.read.toFixed(2)}, verify;dur=${s.verify.toFixed(2)}, record;dur=${s.record.toFixed(2)}`
