/**
 * 3-D Secure after a Direct API authorize: the fingerprint result (request-authentication) and the challenge
 * result (authentication-completed, from the widget or the ACS's cres). The 3-D Secure payment_data comes from
 * the sealed secrets, never from the caller. The trans_status a browser reports is only passed on as the spec's
 * call asks: the session records what the gateway answers (its 3-D Secure server decides from its ACS's record),
 * never the browser's word. These calls are never retried: after a lost answer the status decides.
 */
import type { UpdatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { fingerprintResult, isGatewayError, parseCres, type ExecutionResult } from "../../../../gateway"
import type { PgsSessionData } from "../../../../payments/session-data"
import { applyStep } from "../../attempt"
import type { ProviderDeps } from "../../deps"
import { finishedOutcome, requireNext, stepOutcome } from "../../next-step"
import type { ContinuationRequest } from "../integration"

export async function continueThreeDS(deps: ProviderDeps, current: PgsSessionData, request: ContinuationRequest): Promise<UpdatePaymentOutput> {
  switch (request.kind) {
    case "request_authentication": {
      const next = requireNext(current, "fingerprint")
      const paymentData = sealedPaymentData(deps, current)
      return step(deps, current, () =>
        deps.client.threeDS.requestAuthentication(next.three_ds_server_trans_id, {
          fingerprint_result: fingerprintResult(request.method_completed),
          payment_data: paymentData,
        }),
      )
    }
    case "authentication_completed": {
      const next = requireNext(current, "challenge")
      const paymentData = sealedPaymentData(deps, current)
      return step(deps, current, () =>
        deps.client.threeDS.authenticationCompleted({ payment_data: paymentData, session_id: next.three_ds_server_trans_id, trans_status: request.trans_status }),
      )
    }
    case "cres": {
      const next = requireNext(current, "challenge")
      const cres = readCres(request.cres)
      if (cres.threeDSServerTransID !== next.three_ds_server_trans_id)
        throw new MedusaError(MedusaError.Types.CONFLICT, "The cres belongs to another 3-D Secure authentication than the one this payment session waits for")
      const paymentData = sealedPaymentData(deps, current)
      return step(deps, current, () =>
        deps.client.threeDS.authenticationCompleted({ payment_data: paymentData, session_id: cres.threeDSServerTransID, trans_status: cres.transStatus }),
      )
    }
  }
}

function readCres(value: string) {
  try {
    return parseCres(value)
  } catch (error) {
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `cres is not a 3-D Secure challenge result (${(error as Error).message})`)
  }
}

function sealedPaymentData(deps: ProviderDeps, current: PgsSessionData): string {
  const value = deps.sealer.open(current.sealed, current.session_id).payment_data
  if (!value) throw new MedusaError(MedusaError.Types.CONFLICT, "This payment session has no 3-D Secure step in progress")
  return value
}

async function step(deps: ProviderDeps, current: PgsSessionData, call: () => Promise<ExecutionResult>): Promise<UpdatePaymentOutput> {
  try {
    return applyStep(deps, current, stepOutcome(await call(), current.transaction_type))
  } catch (error) {
    if (!isGatewayError(error) || !current.transaction_id) throw error
    const found = await deps.client.status.transaction(current.transaction_id).catch(() => null)
    if (found && !["CREATED", "PENDING"].includes(found.transaction.status))
      return applyStep(deps, current, finishedOutcome(found.transaction, current.transaction_type))
    throw error
  }
}
