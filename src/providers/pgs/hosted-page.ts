/**
 * Cards on the gateway's hosted payment page: the first cart completion makes the page and sends the shopper
 * there (requires_more with a redirect); when the shopper is back before the webhook, the page tells which
 * transaction it made. Used by `pgs-hosted` and by the card provider on a terminal set to HOSTED_PAYMENT_PAGE.
 */
import type { AuthorizePaymentOutput, PaymentProviderContext, UpdatePaymentOutput } from "@medusajs/framework/types"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import type { PgsClient } from "../../gateway"
import type { TerminalChoice } from "./terminal"
import type { PgsSessionData } from "../../payments/session-data"
import type { SealedSecrets } from "../../payments/seal"
import { payerOf } from "./redirect/payer"
import { hostedPageRequest, type HostedPageLookup, type ReturnUrls } from "./redirect/requests"

export type HostedPageDeps = {
  client: PgsClient
  secrets(current: PgsSessionData): SealedSecrets
  terminalFor(current: PgsSessionData): Promise<TerminalChoice>
  returnUrls(current: PgsSessionData): ReturnUrls
  describe(reference: string): string
  attach(current: PgsSessionData, transactionId: string): Promise<UpdatePaymentOutput>
  refusal(current: PgsSessionData, error: unknown): AuthorizePaymentOutput
  warn(message: string): void
}

export async function authorizeHosted(deps: HostedPageDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
  return current.hosted_page_id ? lookUpHostedPage(deps, current, context) : openHostedPage(deps, current, context)
}

async function openHostedPage(deps: HostedPageDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
  let page: HostedPageLookup
  try {
    page = await deps.client.hostedPages.create(await hostedBody(deps, current, context))
  } catch (error) {
    return deps.refusal(current, error)
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
async function lookUpHostedPage(deps: HostedPageDeps, current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
  let page: HostedPageLookup
  try {
    page = (await deps.client.hostedPages.create(await hostedBody(deps, current, context))) as HostedPageLookup
  } catch (error) {
    // The lookup is an assumption (README): if the gateway refuses it, the approval webhook still decides.
    deps.warn(`[pgs] hosted page of ${current.reference} could not be read again: ${(error as Error).message}`)
    return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The payment page has not been paid yet." } } }
  }
  if (page.id !== current.hosted_page_id) deps.warn(`[pgs] hosted page of ${current.reference}: the gateway answered another page (${page.id})`)
  if (typeof page.transaction_id === "string" && page.transaction_id) {
    const attached = await deps.attach(current, page.transaction_id)
    return { status: attached.status ?? PaymentSessionStatus.PENDING, data: attached.data as PgsSessionData }
  }
  if (page.status === "CANCELED")
    return { status: PaymentSessionStatus.CANCELED, data: { ...current, next_action: null, error: { code: "CANCELED", message: "The payment was canceled on the payment page." } } }
  return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The payment page has not been paid yet." } } }
}

async function hostedBody(deps: HostedPageDeps, current: PgsSessionData, context: PaymentProviderContext | undefined) {
  const terminal = await deps.terminalFor(current)
  return hostedPageRequest(current, {
    payer: payerOf(deps.secrets(current).payer, context),
    urls: deps.returnUrls(current),
    description: deps.describe(current.reference),
    options: terminal.hosted_page_options,
  })
}
