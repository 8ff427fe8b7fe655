/**
 * The simulator keys a merchant may put in `metadata`, read and checked once when a card transaction starts.
 * An unknown value is a 422 on `metadata.<key>` so a typo never silently runs another scenario.
 */
import { rejectField } from "./errors"
import { SIMULATED_FLOWS, type SimulatedFlow, type TransStatus } from "./flow"

export const RESPONSE_CODES = {
  TRX_STATUS_APPROVED: { status: "APPROVED", processing_code: "0000" },
  TRX_STATUS_DECLINED: { status: "DECLINED", processing_code: "1000" },
  TRX_STATUS_FAILED: { status: "DECLINED", processing_code: "1001" },
} as const
export type ResponseCode = keyof typeof RESPONSE_CODES

export type SimulatorMetadata = {
  simulated_flow: SimulatedFlow | null
  response_code: ResponseCode
  simulate_redirect: boolean
  /** The trans_status the simulator page posts (default Y), or null when not asked for. */
  simulate_form_submit: TransStatus | null
  /** Sandbox extension: how many times the issuer asks for further authentication after a challenge (0-2). */
  extra_rounds: number
}

const present = (value: unknown) => value !== undefined && value !== null && value !== false && value !== "" && value !== "false"

function formSubmitStatus(value: unknown): TransStatus {
  // The spec: "value such as a JSON string with trans_status, default Y". Objects and bare letters are accepted too.
  let parsed: unknown = value
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value)
    } catch {
      parsed = /^[YNUACR]$/.test(value) ? { trans_status: value } : {}
    }
  }
  const status = parsed && typeof parsed === "object" ? (parsed as { trans_status?: unknown }).trans_status : undefined
  if (status === undefined) return "Y"
  if (typeof status !== "string" || !/^[YNUACR]$/.test(status))
    throw rejectField("metadata.simulate_form_submit", "trans_status must be one of Y, N, U, A, C, R")
  return status as TransStatus
}

export function readSimulatorMetadata(metadata: Record<string, unknown>): SimulatorMetadata {
  // An empty simulated_flow asks for the full simulator with its default flow.
  const flow = metadata.simulated_flow === "" ? "VERSIONING_FINGERPRINT_Y_CHALLENGE" : metadata.simulated_flow
  if (flow !== undefined && flow !== null && !(SIMULATED_FLOWS as readonly unknown[]).includes(flow))
    throw rejectField("metadata.simulated_flow", `must be one of ${SIMULATED_FLOWS.join(", ")}`, [...SIMULATED_FLOWS])
  const code = metadata.response_code ?? "TRX_STATUS_APPROVED"
  if (typeof code !== "string" || !Object.hasOwn(RESPONSE_CODES, code))
    throw rejectField("metadata.response_code", `must be one of ${Object.keys(RESPONSE_CODES).join(", ")}`, Object.keys(RESPONSE_CODES))
  const rounds = metadata.simulate_extra_rounds ?? "0"
  if (!["0", "1", "2", 0, 1, 2].includes(rounds as string | number))
    throw rejectField("metadata.simulate_extra_rounds", "must be 0, 1 or 2", ["0", "1", "2"])
  return {
    simulated_flow: flow === undefined || flow === null ? null : (flow as SimulatedFlow),
    response_code: code as ResponseCode,
    simulate_redirect: present(metadata.simulate_redirect),
    simulate_form_submit: present(metadata.simulate_form_submit) ? formSubmitStatus(metadata.simulate_form_submit) : null,
    extra_rounds: Number(rounds),
  }
}
