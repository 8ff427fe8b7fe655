/**
 * bench:client's split of one call at concurrency 1, taken from undici's diagnostics channels so both sides run
 * unchanged: before sending (from the call to undici creating the request: the client's validation, serialization,
 * token and headers), on the wire (until the answer's last byte: the gateway's handling and the round trip) and after
 * the answer (its body read, parsed, and for the client validated and turned into a result). Run apart from the timed
 * rounds: subscribing costs a little on both sides.
 */
import diagnostics_channel from "node:diagnostics_channel"

export type CallSplit = { before_us: number; wire_us: number; after_us: number }

const median = (values: number[]) => Math.round([...values].sort((a, b) => a - b)[values.length >> 1] * 1000)

export async function splitAtC1<T>(calls: number, prepare: () => T, call: (input: T) => Promise<void>): Promise<CallSplit> {
  let created = 0
  let finished = 0
  const onCreate = () => void (created = performance.now())
  const onFinished = () => void (finished = performance.now())
  diagnostics_channel.subscribe("undici:request:create", onCreate)
  diagnostics_channel.subscribe("undici:request:trailers", onFinished)
  const before: number[] = []
  const wire: number[] = []
  const after: number[] = []
  try {
    for (let i = 0; i < calls; i++) {
      const input = prepare()
      const started = performance.now()
      await call(input)
      const ended = performance.now()
      before.push(created - started)
      wire.push(finished - created)
      after.push(ended - finished)
    }
  } finally {
    diagnostics_channel.unsubscribe("undici:request:create", onCreate)
    diagnostics_channel.unsubscribe("undici:request:trailers", onFinished)
  }
  return { before_us: median(before), wire_us: median(wire), after_us: median(after) }
}
