/**
 * The providers of alternative, redirect and hosted-page payments. Each family (families.ts) is a thin subclass
 * naming its family; this class changes only what differs from cards:
 * - initiate checks the family's rules and makes no gateway call;
 * - the first cart completion starts the payment (payment endpoint, a redirect type of authorize, or the hosted
 *   page) and answers requires_more with the redirect as the next step;
 * - once the shopper is back, completion reads the status: PENDING is Medusa's pending_authorization (the order
 *   exists, its payment awaits the webhook), APPROVED is captured (single-step) or authorized (hosted AUTHORIZE).
 */
import type { AuthorizePaymentOutput, CapturePaymentInput, CapturePaymentOutput, PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { isGatewayError, type ExecutionResult, type MoneyInput, type Transaction } from "../../../gateway"
import { PgsBaseProvider } from "../base"
import { stepOutcome } from "../next-step"
import type { PgsSessionData } from "../session-data"
import { toMedusaError } from "../to-medusa-error"
import { gatewayMethodOf, type MethodFamily } from "./families"
import { checkFamilyInput } from "./inputs"
import { hostedPageRequest, startRedirectPayment, type HostedPageLookup, type ReturnUrls } from "./requests"
import { payerOf } from "./payer"

export abstract class PgsMethodFamilyProvider extends PgsBaseProvider {
  protected abstract readonly family: MethodFamily

  protected override async startAttempt(
    raw: Record<string, unknown>,
    amount: MoneyInput,
    currencyCode: string,
    _context: PaymentProviderContext | undefined,
  ): Promise<PgsSessionData> {
    const input = checkFamilyInput(this.family, raw, currencyCode)
    return this.familyAttempt(input.session_id, 1, amount, currencyCode, {
      method_data: input.method_data,
      type: gatewayMethodOf(this.family, this.options_, input.voucher_code),
    })
  }

  protected override async restartAttempt(current: PgsSessionData, amount: MoneyInput, currencyCode: string): Promise<PgsSessionData> {
    const secrets = this.sealer.open(current.sealed, current.session_id)
    // Same checks as at initiate (a currency change may break the family's currency rule).
    checkFamilyInput(this.family, { session_id: current.session_id, ...secrets.method_data, ...voucherOf(current) }, currencyCode)
    const next = await this.familyAttempt(current.session_id, current.attempt + 1, amount, currencyCode, {
      method_data: secrets.method_data ?? {},
      payer: secrets.payer,
      type: current.method!.type,
    })
    return {
      ...next,
      ...(current.customer_ip ? { customer_ip: current.customer_ip } : {}),
      ...(current.browser_info ? { browser_info: current.browser_info } : {}),
    }
  }

  private async familyAttempt(
    sessionId: string,
    attempt: number,
    amount: MoneyInput,
    currencyCode: string,
    carried: { method_data: Record<string, string>; payer?: Record<string, string>; type: string },
  ): Promise<PgsSessionData> {
    const { terminal, reference, currency, amountMinor } = await this.attemptCore(sessionId, attempt, amount, currencyCode)
    if (terminal.enabled_methods && !terminal.enabled_methods.includes(this.family.identifier))
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `${this.family.identifier} is not enabled on terminal ${terminal.terminal_id} (${currency.toUpperCase()}): enable it in the terminal's methods`,
      )
    const transactionType = this.family.kind === "payment" ? "PAYMENT" : this.family.kind === "authorize" ? "PURCHASE" : terminal.transaction_type
    return {
      ...this.sealedCore({
        session_id: sessionId,
        reference,
        attempt,
        terminal_id: terminal.terminal_id,
        transaction_type: transactionType,
        currency_code: currency,
        amount_minor: amountMinor,
      }),
      integration: this.family.kind === "hosted" ? "hosted_payment_page" : "redirect",
      method: { family: this.family.identifier, type: carried.type },
      ...(terminal.locale ? { locale: terminal.locale } : {}),
      sealed: this.sealer.seal({ method_data: carried.method_data, ...(carried.payer ? { payer: carried.payer } : {}) }, sessionId),
    }
  }

  /** No transaction yet: start the payment (first completion), or, for the hosted page, find what the shopper did. */
  protected override async authorizeFresh(current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
    if (this.family.kind === "hosted") return current.hosted_page_id ? this.lookUpHostedPage(current, context) : this.openHostedPage(current, context)
    const secrets = this.sealer.open(current.sealed, current.session_id)
    const payer = payerOf(secrets.payer, context)
    let result: ExecutionResult
    try {
      result = await startRedirectPayment(this.client, this.family, {
        current,
        payer,
        methodData: secrets.method_data ?? {},
        urls: this.returnUrls(current),
        description: this.describe(current.reference),
        originatorUrl: this.options_.originatorUrl,
      })
    } catch (error) {
      return this.refusal(current, error)
    }
    return this.applyStep(current, stepOutcome(result, current.transaction_type))
  }

  /** Redirect methods: CREATED means the shopper has not been to the provider yet; PENDING waits on the provider. */
  protected override awaitingShopper(_current: PgsSessionData, tx: Transaction): boolean {
    return tx.status === "CREATED"
  }

  /** Single-step methods have nothing to capture; the hosted page pays by card and captures like cards. */
  override async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    if (this.family.kind === "hosted") return super.capturePayment(input)
    const current = this.verified(input.data)
    if (current.gateway_status === "APPROVED") return { data: current } // taken at payment: already done
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      `${this.family.identifier} payments are single-step (${current.transaction_type}): there is no separate capture, the money is taken when the payment is approved`,
    )
  }

  // ---------------------------------------------------------------- hosted payment page

  private async openHostedPage(current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
    let page: HostedPageLookup
    try {
      page = await this.client.hostedPages.create(await this.hostedBody(current, context))
    } catch (error) {
      return this.refusal(current, error)
    }
    return {
      status: PaymentSessionStatus.REQUIRES_MORE,
      data: { ...current, hosted_page_id: page.id, next_action: { type: "redirect", url: page.url }, error: null },
    }
  }

  /**
   * The shopper is back but no webhook told us the transaction yet. Assumption (README): asking for the page of
   * the same reference again returns the same page, with `transaction_id` once a card was submitted.
   */
  private async lookUpHostedPage(current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
    const page = (await this.client.hostedPages.create(await this.hostedBody(current, context))) as HostedPageLookup
    if (page.id !== current.hosted_page_id) this.logger_.warn(`[pgs] hosted page of ${current.reference}: the gateway answered another page (${page.id})`)
    if (typeof page.transaction_id === "string" && page.transaction_id) {
      const attached = await this.attachTransaction(current, page.transaction_id)
      return { status: attached.status ?? PaymentSessionStatus.PENDING, data: attached.data as PgsSessionData }
    }
    if (page.status === "CANCELED")
      return { status: PaymentSessionStatus.CANCELED, data: { ...current, next_action: null, error: { code: "CANCELED", message: "The payment was canceled on the payment page." } } }
    return {
      status: PaymentSessionStatus.REQUIRES_MORE,
      data: { ...current, error: { code: "NOT_PAID", message: "The payment page has not been paid yet." } },
    }
  }

  private async hostedBody(current: PgsSessionData, context: PaymentProviderContext | undefined) {
    const secrets = this.sealer.open(current.sealed, current.session_id)
    const terminal = await this.terminalFor(current)
    return hostedPageRequest(current, {
      payer: payerOf(secrets.payer, context),
      urls: this.returnUrls(current),
      description: this.describe(current.reference),
      options: terminal.hosted_page_options,
    })
  }

  // ---------------------------------------------------------------- shared

  /** The storefront's return page, with a hint of the outcome where the gateway has one URL per outcome. */
  private returnUrls(current: PgsSessionData): ReturnUrls {
    return { success: this.returnUrl(current, "success"), error: this.returnUrl(current, "error"), cancel: this.returnUrl(current, "cancel"), any: this.returnUrl(current) }
  }

  /** A gateway refusal of the request (validation, bad request) is the shopper's failed payment; anything else is thrown. */
  private refusal(current: PgsSessionData, error: unknown): AuthorizePaymentOutput {
    if (error instanceof MedusaError) throw error
    if (isGatewayError(error) && (error.type === "validation" || error.type === "bad_request")) {
      this.logger_.warn(`[pgs] ${this.family.identifier} payment refused for ${current.session_id}: ${error.merchantMessage}`)
      return { status: PaymentSessionStatus.ERROR, data: { ...current, error: { code: "REFUSED", message: error.shopperMessage } } }
    }
    throw toMedusaError(error, "authorizePayment", "shopper", this.logger_)
  }
}

const voucherOf = (current: PgsSessionData) =>
  current.method?.type.startsWith("voucher-redirect-") ? { voucher_code: current.method.type.slice("voucher-redirect-".length) } : {}
