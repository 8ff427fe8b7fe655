/** Every URL of the card flows, in one place: simulator pages, the sandbox ACS and the gateway notification pages. */
import type { SandboxContext } from "../core/context"
import type { IntegrationType } from "../core/types"

export const simulatorPageUrl = (ctx: SandboxContext, txId: string) => `${ctx.urls.base}/simulator/simplified/three-ds/${txId}`
export const simulatorCompletionUrl = (ctx: SandboxContext, txId: string) => `${simulatorPageUrl(ctx, txId)}/authentication-completed`

export const acsMethodUrl = (ctx: SandboxContext) => `${ctx.urls.base}/acs/three-ds-method`
export const acsChallengeUrl = (ctx: SandboxContext) => `${ctx.urls.base}/acs/challenge`
export const acsDecisionUrl = (ctx: SandboxContext, serverTransId: string) => `${ctx.urls.base}/acs/challenge/${serverTransId}/decision`

export const methodNotificationUrl = (ctx: SandboxContext, txId: string) => `${ctx.urls.base}/three-ds/${txId}/method-notification`

/** The gateway-managed challenge notification URL for each integration type (spec: three documented paths). */
export const NOTIFICATION_PATHS: Record<IntegrationType, string> = {
  DIRECT_API: "challenge-notification-url",
  EMBEDDED_FIELDS: "embedded-fields/challenge-notification-url",
  HOSTED_PAYMENT_PAGE: "hosted-payment-page/challenge-notification-url",
}
export const defaultNotificationUrl = (ctx: SandboxContext, txId: string, integration: IntegrationType) =>
  `${ctx.urls.base}/three-ds/${txId}/${NOTIFICATION_PATHS[integration]}`
