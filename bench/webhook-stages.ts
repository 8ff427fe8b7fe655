/**
 * bench:checkout's webhook report: where an acknowledgement's time goes (the receiver's Server-Timing stages per
 * answer, and the rest: the sender, the HTTP exchange, waiting for the receiver's event loop), and the receiver's p99
 * against the answer-only server's in the same run, with its goal.
 */
import { percentile, round } from "./support"

/** Receiver p99 / answer-only p99 must stay within this (the goal). */
export const ACK_P99_RATIO_GOAL = 1.3

const STAGES = ["read", "verify", "record"] as const

const spread = (values: number[]) => {
  values.sort((a, b) => a - b)
  return { p50: round(percentile(values, 50), 2), p99: round(percentile(values, 99), 2) }
}

/** Stage percentiles (ms) from the answers' Server-Timing headers; `outside` is each ack less the receiver's own stages. */
export function ackStages(acks: number[], timings: Array<string | null>) {
  const stages: Record<string, number[]> = { read: [], verify: [], record: [], inside: [], outside: [] }
  timings.forEach((header, i) => {
    if (!header) return
    let inside = 0
    for (const stage of STAGES) {
      const ms = Number(new RegExp(`${stage};dur=([\\d.]+)`).exec(header)?.[1] ?? NaN)
      stages[stage].push(ms)
      inside += ms
    }
    stages.inside.push(inside)
    stages.outside.push(acks[i] - inside)
  })
  if (!stages.inside.length) return null
  return Object.fromEntries(Object.entries(stages).map(([name, values]) => [name, spread(values)]))
}

export function ackRatio(receiverP99: number, answerOnlyP99: number) {
  const ratio = round(receiverP99 / answerOnlyP99)
  return { ack_p99_ratio_to_answer_only: ratio, ack_p99_ratio_goal: ACK_P99_RATIO_GOAL, ack_p99_ratio_met: ratio <= ACK_P99_RATIO_GOAL }
}
