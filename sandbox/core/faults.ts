/**
 * Fault injection per endpoint and count. A rule names its target as "METHOD /route/pattern" (the router's
 * pattern, e.g. "POST /api/transactions/manage"), "*" for every API call, or "webhook" for deliveries.
 * phase "before": the fault hits before the gateway does anything (nothing happened);
 * phase "after": the operation is carried out, then the response is lost, delayed or replaced.
 */
import { newId } from "./ids"

export const HTTP_FAULT_KINDS = ["latency", "status", "drop", "timeout", "garble"] as const
export const WEBHOOK_FAULT_KINDS = ["duplicate", "out_of_order", "fail"] as const
export type FaultKind = (typeof HTTP_FAULT_KINDS)[number] | (typeof WEBHOOK_FAULT_KINDS)[number]

export type FaultRule = {
  id: string
  target: string
  kind: FaultKind
  phase: "before" | "after"
  /** How many matching requests (or deliveries) it still applies to. */
  remaining: number
  latency_ms: number
  /** For kind "status": 500, 502, 503, 504 or 429. */
  status: number
  hits: number
}

export class FaultInjector {
  readonly rules: FaultRule[] = []

  add(input: Partial<FaultRule> & Pick<FaultRule, "target" | "kind">): FaultRule {
    const rule: FaultRule = {
      id: newId("flt"),
      phase: "before",
      remaining: 1,
      latency_ms: input.kind === "timeout" ? 60_000 : 0,
      status: 503,
      hits: 0,
      ...input,
    }
    this.rules.push(rule)
    return rule
  }

  clear(): void {
    this.rules.length = 0
  }

  /** Take one use of the first rule that matches, if any. */
  take(target: string, phase: "before" | "after" | "any", kinds?: readonly FaultKind[]): FaultRule | undefined {
    const rule = this.rules.find(
      (r) =>
        r.remaining > 0 &&
        (phase === "any" || r.phase === phase) &&
        (!kinds || kinds.includes(r.kind)) &&
        (r.target === target || (r.target === "*" && target !== "webhook")),
    )
    if (!rule) return undefined
    rule.remaining--
    rule.hits++
    return rule
  }
}
