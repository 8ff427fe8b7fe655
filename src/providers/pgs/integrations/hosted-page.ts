/**
 * Cards on the gateway's hosted payment page (the `pgs-hosted` provider, and the card provider on a terminal set
 * to HOSTED_PAYMENT_PAGE): nothing is sent at initiate; the first cart completion makes the page and sends the
 * shopper there (requires_more with a redirect); when the shopper is back before the webhook, the page tells which
 * transaction it made, and that transaction is attached like an embedded one.
 */
import type { AuthorizePaymentOutput, PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { HPP_LANGUAGES, type HostedPaymentPageRequest, type HostedPaymentPageResponse } from "../../../gateway"
import { cardTransactionType, type PgsSessionData } from "../../../payments/session-data"
import { attachTransaction } from "../attach-transaction"
import { baseSession, describe, refusal, returnUrls, terminalFor } from "../attempt"
import type { ProviderDeps } from "../deps"
import { orderNumberOfSession } from "../../../modules/pgs/medusa-tables"
import type { Integration } from "./integration"
import { familySession } from "./method-family"
import { customerOf, payerOf } from "./payer"

/** The hosted page as the gateway answers; `transaction_id` is our assumption (see lookUpHostedPage). */
type HostedPageLookup = HostedPaymentPageResponse & { transaction_id?: unknown; status?: unknown }

export const hostedPage: Integration = {
  name: "hosted_payment_page",
  takesTransactionFromOutside: true,

  async start(deps, attempt) {
    if (attempt.choice.kind === "family") return familySession(deps, attempt, "hosted_payment_page")
    if (attempt.choice.input.save_card) throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.save_card is not possible on the hosted payment page")
    const locale = attempt.start.terminal.locale
    return { ...baseSession(deps, attempt, "hosted_payment_page"), ...(locale ? { locale } : {}) }
  },

  authorize(deps, current, context) {
    return current.hosted_page_id ? lookUpHostedPage(deps, current, context) : openHostedPage(deps, current, context)
  },

  // CREATED is the shopper still authenticating on the page; PENDING waits on the gateway.
  awaitingShopper: (_current, tx) => tx.status === "CREATED",
}

async function openHostedPage(deps: ProviderDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
  let page: HostedPageLookup
  try {
    page = await deps.client.hostedPages.create(await hostedBody(deps, current, context))
  } catch (error) {
    return refusal(deps, current, error)
  }
  return {
    status: PaymentSessionStatus.REQUIRES_MORE,
    data: { ...current, hosted_page_id: page.id, next_action: { type: "redirect", url: page.url }, error: null },
  }
}

/**
 * The shopper is back but no webhook told us the transaction yet. Assumption (README): asking for the page of the
 * same reference again returns the same page, with `transaction_id` once a card was submitted.
 */
async function lookUpHostedPage(deps: ProviderDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
  let page: HostedPageLookup
  try {
    page = (await deps.client.hostedPages.create(await hostedBody(deps, current, context))) as HostedPageLookup
  } catch (error) {
    // The lookup is an assumption (README): if the gateway refuses it, the approval webhook still decides.
    deps.logger.warn(`[pgs] hosted page of ${current.reference} could not be read again: ${(error as Error).message}`)
    return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The payment page has not been paid yet." } } }
  }
  if (page.id !== current.hosted_page_id) deps.logger.warn(`[pgs] hosted page of ${current.reference}: the gateway answered another page (${page.id})`)
  if (typeof page.transaction_id === "string" && page.transaction_id) {
    const attached = await attachTransaction(deps, hostedPage, current, page.transaction_id)
    return { status: attached.status ?? PaymentSessionStatus.PENDING, data: attached.data as PgsSessionData }
  }
  if (page.status === "CANCELED")
    return { status: PaymentSessionStatus.CANCELED, data: { ...current, next_action: null, error: { code: "CANCELED", message: "The payment was canceled on the payment page." } } }
  return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The payment page has not been paid yet." } } }
}

/**
 * What the gateway's page shows the payer as what they pay for: a pay link's order by its number ("Order #12"), as
 * the dashboard and the order's emails name it; a cart's checkout, which has no order yet, by its reference.
 */
async function descriptionOf(deps: ProviderDeps, current: PgsSessionData): Promise<string> {
  const number = current.return_to === "pay_link" && deps.knex ? await orderNumberOfSession(deps.knex, current.session_id) : null
  return number === null ? describe(current.reference) : `Order #${number}`
}

async function hostedBody(deps: ProviderDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<HostedPaymentPageRequest> {
  const terminal = await terminalFor(deps, current)
  const payer = payerOf(deps.sealer.open(current.sealed, current.session_id).payer, context)
  const urls = returnUrls(deps, current)
  const language = (HPP_LANGUAGES as readonly string[]).includes(current.locale ?? "") ? (current.locale as (typeof HPP_LANGUAGES)[number]) : undefined
  const options = terminal.hosted_page_options ?? {}
  const pageOptions = {
    ...(options.skip_three_ds !== undefined ? { skip_three_ds: options.skip_three_ds } : {}),
    ...(options.cvv_less !== undefined ? { cvv_less: options.cvv_less } : {}),
    ...(options.number_of_instalments !== undefined ? { number_of_instalments: options.number_of_instalments } : {}),
  }
  return {
    terminal_id: current.terminal_id,
    reference: current.reference,
    description: await descriptionOf(deps, current),
    currency: current.currency_code.toUpperCase(),
    amount: current.amount_minor,
    transaction_type: cardTransactionType(current.transaction_type),
    success_url: urls.success,
    cancel_url: urls.cancel,
    error_url: urls.error,
    ...(language ? { language } : {}),
    ...(customerOf(payer) ? { customer: customerOf(payer) } : {}),
    metadata: { medusa_payment_session_id: current.session_id },
    ...(Object.keys(pageOptions).length ? { options: pageOptions } : {}),
  }
}
