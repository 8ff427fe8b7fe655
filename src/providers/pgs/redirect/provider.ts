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
import { MedusaError } from "@medusajs/framework/utils"
import type { ExecutionResult, MoneyInput, Transaction } from "../../../gateway"
import { PgsBaseProvider } from "../base"
import { stepOutcome } from "../next-step"
import type { PgsSessionData } from "../../../payments/session-data"
import { gatewayMethodOf, type MethodFamily } from "../../../payments/method-families"
import { checkFamilyInput } from "./inputs"
import { startRedirectPayment } from "./requests"
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
    if (current.integration === "hosted_payment_page") return super.authorizeFresh(current, context)
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
}

const voucherOf = (current: PgsSessionData) =>
  current.method?.type.startsWith("voucher-redirect-") ? { voucher_code: current.method.type.slice("voucher-redirect-".length) } : {}
