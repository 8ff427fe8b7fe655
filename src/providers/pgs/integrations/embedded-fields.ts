/**
 * Embedded Fields (the default for cards): initiate opens a gateway session for the gateway's card fields; the
 * shopper pays inside them (3-D Secure in the gateway's iframe) and the widget names the transaction it made,
 * which is checked with the gateway before it is attached. Until then cart completion has nothing to authorize.
 */
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { cardFieldsScriptUrl } from "../../../modules/pgs/options"
import { baseSession, customerOfContext, describe, returnUrl } from "../attempt"
import type { Integration } from "./integration"

export const embeddedFields: Integration = {
  name: "embedded_fields",
  takesTransactionFromOutside: true,

  async start(deps, attempt) {
    const { start, context, choice } = attempt
    if (choice.kind === "card" && choice.input.save_card)
      throw new MedusaError(
        MedusaError.Types.INVALID_DATA,
        "data.save_card is not possible with Embedded Fields: the gateway's session endpoint has no tokenization. Pay with the Direct API to save a card.",
      )
    const base = baseSession(deps, attempt, "embedded_fields")
    const { terminal } = start
    const customer = customerOfContext(context)
    const session = await deps.client.sessions.create({
      terminal_id: terminal.terminal_id,
      reference: start.reference,
      description: describe(start.reference),
      currency: start.currency.toUpperCase(),
      amount: start.amountMinor,
      transaction_type: terminal.transaction_type,
      return_url: returnUrl(deps, { session_id: start.sessionId }),
      ...(customer ? { customer } : {}),
    })
    return {
      ...base,
      gateway_session_id: session.id,
      // The client key is public by design: it only opens this session.
      client_key: deps.options.clientKey,
      environment: deps.options.environment,
      script_url: cardFieldsScriptUrl(deps.options),
      ...(terminal.locale ? { locale: terminal.locale } : {}),
      instalments: terminal.instalments,
      ...(terminal.css_variables ? { css_variables: terminal.css_variables } : {}),
    }
  },

  async authorize(_deps, current) {
    return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The shopper has not paid yet." } } }
  },

  // An open transaction is 3-D Secure inside the gateway's iframe: the shopper is still at it.
  awaitingShopper: () => true,
}
