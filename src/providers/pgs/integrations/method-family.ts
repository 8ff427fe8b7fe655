/**
 * The session fields of a method family's payment (redirect methods and the `pgs-hosted` provider): the family
 * and the gateway's method value in public, what the shopper chose and the payer's details sealed.
 */
import { browserInfoOf, clearedPublicBrowserInfo, customerIpOf } from "../../../payments/seal"
import type { PgsSessionData } from "../../../payments/session-data"
import { baseSession } from "../attempt"
import type { ProviderDeps } from "../deps"
import type { NewAttempt } from "./integration"

export function familySession(deps: ProviderDeps, attempt: NewAttempt, integration: PgsSessionData["integration"]): PgsSessionData {
  const { choice, start, previous } = attempt
  if (choice.kind !== "family") throw new Error(`a ${integration} session of a method family needs the family's choice`)
  const browserInfo = previous ? browserInfoOf(previous.data, previous.secrets) : undefined
  const customerIp = previous ? customerIpOf(previous.data, previous.secrets) : undefined
  return {
    ...baseSession(deps, attempt, integration),
    method: { family: choice.family.identifier, type: choice.type },
    ...(start.terminal.locale ? { locale: start.terminal.locale } : {}),
    ...(choice.payLink ? { return_to: "pay_link" as const } : {}),
    // A restart keeps what the client-info route recorded from the shopper's browser.
    sealed: deps.sealer.seal(
      { method_data: choice.methodData, ...(choice.payer ? { payer: choice.payer } : {}), ...(browserInfo ? { browser_info: browserInfo } : {}), ...(customerIp ? { customer_ip: customerIp } : {}) },
      start.sessionId,
    ),
    ...(previous ? clearedPublicBrowserInfo(previous.data) : {}),
  }
}
