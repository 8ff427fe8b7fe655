/**
 * A session's first attempt, and the next one when the cart's amount or currency changes: the provider's family
 * reads what the storefront sent, picks the integration, and the integration builds the session.
 * - Cards: the Direct API when a payment method is sent, else the terminal's integration (Embedded Fields or the
 *   hosted page). A restart keeps the integration and what the shopper chose.
 * - Method families: their rules (currency, enabled on the terminal, the shopper's choices), then a redirect
 *   payment, or the hosted page for `pgs-hosted`.
 */
import type { PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { GATEWAY_UNAVAILABLE, GATEWAY_UNAVAILABLE_MESSAGE } from "../../payments/gateway-unavailable"
import { tellTerminalRefusal } from "../../payments/terminal-refused"
import type { MoneyInput } from "../../gateway"
import { gatewayMethodOf, type MethodFamily } from "../../payments/method-families"
import { browserInfoOf, type SealedSecrets } from "../../payments/seal"
import type { GatewayTransactionType, PgsSessionData } from "../../payments/session-data"
import { attemptStart } from "./attempt"
import type { ProviderDeps } from "./deps"
import { checkFamilyInput } from "./family-input"
import { describeIssues, initiateInput, type InitiateInput } from "./initiate-input"
import { directApi, embeddedFields, hostedPage, integrationOf, redirect } from "./integrations"
import type { AttemptStart } from "./integrations/integration"
import { prepareDirectMethod } from "./integrations/direct-api/payment-method"
import type { TerminalChoice } from "./terminal"

/** The card provider's family: one provider, three integrations. */
export const CARD_FAMILY = { kind: "card", identifier: "pgs" } as const
export type ProviderFamily = typeof CARD_FAMILY | MethodFamily

type Previous = { data: PgsSessionData; secrets: SealedSecrets }
type FamilyCarried = { methodData: Record<string, string>; payer?: Record<string, string>; type: string; payLink?: boolean }

export async function startSession(
  deps: ProviderDeps,
  family: ProviderFamily,
  raw: Record<string, unknown>,
  amount: MoneyInput,
  currencyCode: string,
  context: PaymentProviderContext | undefined,
): Promise<PgsSessionData> {
  if (family.kind === "card") {
    const parsed = initiateInput.safeParse(raw)
    if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid PGS payment data: ${describeIssues(parsed.error)}`)
    return startCardAttempt(deps, parsed.data, 1, amount, currencyCode, context)
  }
  const input = checkFamilyInput(family, raw, currencyCode)
  const carried = { methodData: input.method_data, type: gatewayMethodOf(family, deps.options, input.voucher_code), payLink: input.pay_link }
  return startFamilyAttempt(deps, family, input.session_id, 1, amount, currencyCode, carried, context)
}

/** The next attempt after the amount or currency changed (the gateway object is bound to both: new reference). */
export async function restartSession(
  deps: ProviderDeps,
  family: ProviderFamily,
  current: PgsSessionData,
  amount: MoneyInput,
  currencyCode: string,
  context: PaymentProviderContext | undefined,
): Promise<PgsSessionData> {
  const previous = { data: current, secrets: deps.sealer.open(current.sealed, current.session_id) }
  if (family.kind === "card") {
    const input: InitiateInput = {
      session_id: current.session_id,
      browser_info: browserInfoOf(current, previous.secrets),
      save_card: current.save_card,
      simulated_flow: current.simulated_flow,
    }
    return startCardAttempt(deps, input, current.attempt + 1, amount, currencyCode, context, previous)
  }
  // Same checks as at initiate (a currency change may break the family's currency rule).
  checkFamilyInput(family, { session_id: current.session_id, ...previous.secrets.method_data, ...voucherOf(current) }, currencyCode)
  const carried = { methodData: previous.secrets.method_data ?? {}, payer: previous.secrets.payer, type: current.method!.type, payLink: current.return_to === "pay_link" }
  return startFamilyAttempt(deps, family, current.session_id, current.attempt + 1, amount, currencyCode, carried, context, previous)
}

async function startCardAttempt(
  deps: ProviderDeps,
  input: InitiateInput,
  attempt: number,
  amount: MoneyInput,
  currencyCode: string,
  context: PaymentProviderContext | undefined,
  previous?: Previous,
): Promise<PgsSessionData> {
  // A payment method sent with the session (the Direct API) is checked while the terminal is read: a saved card's
  // read and the terminal's go to the database together. The integration awaits it after its own checks.
  const directMethod = !previous && input.payment_method !== undefined ? prepareDirectMethod(deps, input.payment_method, context) : undefined
  directMethod?.catch(() => undefined) // its failure is the integration's to throw, in its turn
  const start = await attemptStart(deps, input.session_id, attempt, amount, currencyCode)
  // A terminal set to the hosted payment page takes the card there (nothing is sent before cart completion).
  const integration = previous
    ? integrationOf(previous.data)
    : input.payment_method !== undefined
      ? directApi
      : start.terminal.integration_type === "HOSTED_PAYMENT_PAGE"
        ? hostedPage
        : embeddedFields
  if (input.simulated_flow && deps.options.environment !== "test")
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.simulated_flow is accepted only when the provider's environment is \"test\"")
  const choice = { kind: "card" as const, input }
  return startedOn(deps, start, integration.start(deps, { start, transactionType: start.terminal.transaction_type, choice, context, previous, directMethod }))
}

async function startFamilyAttempt(
  deps: ProviderDeps,
  family: MethodFamily,
  sessionId: string,
  attempt: number,
  amount: MoneyInput,
  currencyCode: string,
  carried: FamilyCarried,
  context: PaymentProviderContext | undefined,
  previous?: Previous,
): Promise<PgsSessionData> {
  const start = await attemptStart(deps, sessionId, attempt, amount, currencyCode)
  const { terminal } = start
  if (terminal.enabled_methods && !terminal.enabled_methods.includes(family.identifier))
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `${family.identifier} is not enabled on terminal ${terminal.terminal_id} (${start.currency.toUpperCase()}): enable it in the terminal's methods`,
    )
  const integration = family.kind === "hosted" ? hostedPage : redirect
  const choice = { kind: "family" as const, family, ...carried }
  return startedOn(deps, start, integration.start(deps, { start, transactionType: transactionTypeOf(family, terminal), choice, context, previous }))
}

/**
 * The integration's start, where a terminal the gateway refuses is told to the shop admin (payments/terminal-refused.ts)
 * and to the shopper as payments being unavailable, which they are, instead of as their details being refused.
 */
async function startedOn(deps: ProviderDeps, start: AttemptStart, started: Promise<PgsSessionData>): Promise<PgsSessionData> {
  try {
    return await started
  } catch (error) {
    if (!(await tellTerminalRefusal(deps.knex, deps.logger, { terminalId: start.terminal.terminal_id, currency: start.currency }, error))) throw error
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, GATEWAY_UNAVAILABLE_MESSAGE, GATEWAY_UNAVAILABLE)
  }
}

/** The payment endpoint makes PAYMENTs, redirect authorizes are PURCHASEs, the hosted page follows the terminal. */
function transactionTypeOf(family: MethodFamily, terminal: TerminalChoice): GatewayTransactionType {
  return family.kind === "payment" ? "PAYMENT" : family.kind === "authorize" ? "PURCHASE" : terminal.transaction_type
}

const voucherOf = (current: PgsSessionData) =>
  current.method?.type.startsWith("voucher-redirect-") ? { voucher_code: current.method.type.slice("voucher-redirect-".length) } : {}
