/**
 * The sandbox switch that lets a payment, payout or redirect method finish without the provider page:
 * metadata `simulate_result` = "APPROVED" | "DECLINED" (the provider finished at once: `result` with that status)
 * or "PENDING" (`result` PENDING without a redirect: the provider works asynchronously; resolve it with the
 * control POST /_sandbox/transactions/:id/outcome). Any other value is a 422 so a typo never goes unnoticed.
 */
import { invalid, type SandboxRequest } from "../core/http"

export const SIMULATED_RESULTS = ["APPROVED", "DECLINED", "PENDING"] as const
export type SimulatedResult = (typeof SIMULATED_RESULTS)[number]

export function simulatedResult(req: SandboxRequest, metadata: Record<string, unknown> | undefined): SimulatedResult | null {
  const value = metadata?.simulate_result
  if (value === undefined) return null
  if (typeof value === "string" && (SIMULATED_RESULTS as readonly string[]).includes(value)) return value as SimulatedResult
  throw invalid(req, "metadata.simulate_result", `must be one of ${SIMULATED_RESULTS.join(", ")}`, [...SIMULATED_RESULTS])
}
