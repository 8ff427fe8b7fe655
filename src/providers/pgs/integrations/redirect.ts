/**
 * Alternative and redirect methods (one provider per family, `payments/method-families.ts`): initiate checks the
 * family's rules and sends nothing; the first cart completion starts the payment (payment endpoint or a redirect
 * type of authorize) and answers requires_more with the redirect as the next step; once the shopper is back,
 * completion reads the status: PENDING is Medusa's pending_authorization (the order exists, its payment awaits
 * the webhook), APPROVED is captured (the money is taken in one step).
 */
import { MedusaError } from "@medusajs/framework/utils"
import type { ExecutionResult } from "../../../gateway"
import { familyOf } from "../../../payments/method-families"
import { browserInfoOf, customerIpOf } from "../../../payments/seal"
import { applyStep, describe, refusal, returnUrls } from "../attempt"
import { stepOutcome } from "../next-step"
import type { Integration } from "./integration"
import { familySession } from "./method-family"
import { payerOf } from "./payer"
import { startRedirectPayment } from "./redirect-requests"

export const redirect: Integration = {
  name: "redirect",
  takesTransactionFromOutside: false,

  start: (deps, attempt) => Promise.resolve(familySession(deps, attempt, "redirect")),

  async authorize(deps, current, context) {
    const family = current.method ? familyOf(current.method.family) : undefined
    if (!family) throw new MedusaError(MedusaError.Types.INVALID_DATA, `PGS session ${current.session_id} names no method family it can pay with`)
    const secrets = deps.sealer.open(current.sealed, current.session_id)
    let result: ExecutionResult
    try {
      result = await startRedirectPayment(deps.client, family, {
        current,
        payer: payerOf(secrets.payer, context),
        methodData: secrets.method_data ?? {},
        browserInfo: browserInfoOf(current, secrets),
        customerIp: customerIpOf(current, secrets),
        urls: returnUrls(deps, current),
        description: describe(current.reference),
        originatorUrl: deps.options.originatorUrl,
      })
    } catch (error) {
      return refusal(deps, current, error)
    }
    return applyStep(deps, current, stepOutcome(result, current.transaction_type))
  },

  // CREATED: the shopper has not been to the method's provider yet; PENDING waits on the provider.
  awaitingShopper: (_current, tx) => tx.status === "CREATED",

  confirmSingleStepCapture(current) {
    if (current.gateway_status === "APPROVED") return // taken at payment: already done
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `${current.method?.family ?? "This method's"} payments are single-step (${current.transaction_type}): there is no separate capture, the money is taken when the payment is approved`,
    )
  },
}
