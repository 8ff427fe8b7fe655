/**
 * All PGS provider logic. Method families (card today; redirect methods later) are thin subclasses that set
 * `identifier` and, where they differ, override the small hooks at the bottom (`familyOf`, `describe`).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type {
  AuthorizePaymentInput,
  AuthorizePaymentOutput,
  CancelPaymentInput,
  CancelPaymentOutput,
  CapturePaymentInput,
  CapturePaymentOutput,
  CreateAccountHolderInput,
  CreateAccountHolderOutput,
  DeletePaymentInput,
  DeletePaymentMethodInput,
  DeletePaymentMethodOutput,
  DeletePaymentOutput,
  GetPaymentStatusInput,
  GetPaymentStatusOutput,
  InitiatePaymentInput,
  InitiatePaymentOutput,
  ListPaymentMethodsInput,
  ListPaymentMethodsOutput,
  PaymentProviderContext,
  ProviderWebhookPayload,
  RefundPaymentInput,
  RefundPaymentOutput,
  RetrievePaymentInput,
  RetrievePaymentOutput,
  UpdatePaymentInput,
  UpdatePaymentOutput,
  WebhookActionResult,
} from "@medusajs/framework/types"
import { AbstractPaymentProvider, MedusaError, PaymentActions, PaymentSessionStatus } from "@medusajs/framework/utils"
import {
  GatewayOutcomeUnknownError,
  fingerprintResult,
  isGatewayError,
  isPossibleE164,
  isValidNotificationUrl,
  parseCres,
  PgsClient,
  toMinorUnits,
  type AuthorizeRequest,
  type ExecutionResult,
  type ManageResult,
  type MoneyInput,
  type PaymentMethodInput,
  type Transaction,
} from "../../gateway"
import { listSavedCards } from "../../modules/pgs/queries"
import { prepareDirectMethod } from "./direct-method"
import { describeIssues, initiateInput, type InitiateInput } from "./initiate-input"
import { recordRetiredSession } from "../../modules/pgs/retired-sessions"
import { rememberLostAnswer } from "../../payments/lost-answers"
import { captureAmountMinor, customerOfAccountHolder, externalRefundOf, saveSessionOutcome } from "../../modules/pgs/medusa-tables"
import { finishedOutcome, stepOutcome, type StepOutcome } from "./next-step"
import { parseOptions, type PgsProviderOptions } from "../../modules/pgs/options"
import { sharedGatewayClient } from "../../modules/pgs/gateway"
import { gatewayReferenceFor } from "../../payments/reference"
import { Sealer, type SealedSecrets } from "../../payments/seal"
import { blankUnissued } from "./storefront-data"
import { PGS_REQUEST_KEY, serverRequest, type ServerRequest } from "../../payments/server-requests"
import { cardTransactionType, isSingleStep, parseSessionData, type AttemptCore, type PgsSessionData } from "../../payments/session-data"
import { gatewayTransactionType, isFailedStatus, MEDUSA_ACCEPTED_AT_AUTHORIZE } from "../../payments/status-table"
import { chooseTerminal } from "./terminal"
import { toMedusaError } from "./to-medusa-error"
import { authorizeHosted, type HostedPageDeps } from "./hosted-page"
import type { ReturnUrls } from "./redirect/requests"
import { definedOnly } from "./redirect/payer"

type Logger = { info(m: string): void; warn(m: string): void; error(m: string): void; debug?(m: string): void }


export abstract class PgsBaseProvider extends AbstractPaymentProvider<PgsProviderOptions> {
  protected readonly options_: PgsProviderOptions
  protected readonly client: PgsClient
  protected readonly sealer: Sealer
  protected readonly logger_: Logger
  private readonly knex_: Knex | null

  static override validateOptions(options: Record<string, unknown>): void {
    parseOptions(options)
  }

  protected constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    const parsed = parseOptions(options)
    super(cradle, parsed)
    this.options_ = parsed
    this.logger_ = optional<Logger>(cradle, "logger") ?? console
    // The payment module's own connection: our module's tables and Medusa's capture rows are read through it.
    this.knex_ = optional<Knex>(cradle, "__pg_connection__")
    this.sealer = new Sealer(parsed.clientSecret)
    // The card and method-family providers, and the pgs module, share one client: one token, one connection pool.
    this.client = sharedGatewayClient(parsed, this.logger_)
  }

  // ---------------------------------------------------------------- sessions

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    try {
      const data = await this.startAttempt(input.data ?? {}, input.amount as MoneyInput, input.currency_code, input.context)
      return { id: data.gateway_session_id ?? data.reference, data: this.withStorefrontKeysCleared(input.data, data), status: PaymentSessionStatus.PENDING }
    } catch (error) {
      throw toMedusaError(error, "initiatePayment", "shopper", this.logger_)
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const raw = (input.data ?? {}) as Record<string, unknown>
    try {
      const { [PGS_REQUEST_KEY]: request, ...rest } = raw
      const current = this.verified(rest)
      if (request !== undefined) {
        const parsed = serverRequest.safeParse(request)
        if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, describeIssues(parsed.error, PGS_REQUEST_KEY))
        return await this.handleServerRequest(current, parsed.data)
      }
      const amountMinor = toMinorUnits(input.amount as MoneyInput, input.currency_code)
      if (amountMinor === current.amount_minor && input.currency_code.toLowerCase() === current.currency_code) return { data: current }
      // The amount or currency changed: the gateway object is bound to both, so start a new attempt (new reference).
      const data = await this.restartAttempt(current, input.amount as MoneyInput, input.currency_code, input.context)
      return { data, status: PaymentSessionStatus.PENDING }
    } catch (error) {
      throw toMedusaError(error, "updatePayment", "shopper", this.logger_)
    }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    // Gateway sessions cannot be deleted; an unpaid one simply never becomes a transaction. The session is kept on
    // record, so that money the gateway takes for it later is provably ours and goes back (late refunds).
    await this.retire(input.data)
    return { data: input.data ?? {} }
  }

  private async retire(raw: Record<string, unknown> | undefined): Promise<void> {
    if (!this.knex_) return
    try {
      const d = this.verified(raw)
      await recordRetiredSession(this.knex_, {
        session_id: d.session_id,
        reference: d.reference,
        terminal_id: d.terminal_id,
        transaction_id: d.transaction_id ?? null,
        amount_minor: d.amount_minor,
        currency_code: d.currency_code,
      })
    } catch (error) {
      this.logger_.warn(`[pgs] a deleted payment session could not be kept on record: ${(error as Error).message}`)
    }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    let outcome: AuthorizePaymentOutput
    try {
      const current = this.verified(input.data)
      outcome = current.transaction_id ? await this.refreshFromGateway(current) : await this.authorizeFresh(current, input.context)
    } catch (error) {
      throw toMedusaError(error, "authorizePayment", "shopper", this.logger_)
    }
    await this.reportUnauthorized(outcome)
    return outcome
  }

  /**
   * Medusa quirk: for any status but authorized/captured/pending_authorization the payment module saves the
   * session and throws a MedusaError NOT_ALLOWED, which authorizePaymentSessionStep re-throws as is, so cart
   * completion answers 400 "Session … was not authorized" and its requires_more branch
   * (PAYMENT_REQUIRES_MORE_ERROR → 200 {type: "cart", error}) is never reached. So we save the session row
   * ourselves (the payment module's own connection and table) and throw a plain Error: the step only logs it,
   * re-reads the session and raises the documented requires_more / authorization error for the storefront.
   */
  private async reportUnauthorized(outcome: AuthorizePaymentOutput): Promise<void> {
    if (MEDUSA_ACCEPTED_AT_AUTHORIZE.has(outcome.status) || !this.knex_) return
    const data = outcome.data as PgsSessionData
    try {
      await saveSessionOutcome(this.knex_, data.session_id, outcome.status, data)
    } catch (error) {
      this.logger_.warn(`[pgs] could not save session ${data.session_id} before reporting ${outcome.status}: ${(error as Error).message}`)
      return // Medusa then saves it itself (and answers the 400 described above)
    }
    throw new Error(`PGS payment session ${data.session_id} is ${outcome.status}${data.error ? `: ${data.error.message}` : ""}`)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    try {
      const current = this.verified(input.data)
      if (!current.transaction_id) return { status: current.next_action ? PaymentSessionStatus.REQUIRES_MORE : PaymentSessionStatus.PENDING, data: current }
      return await this.refreshFromGateway(current)
    } catch (error) {
      throw toMedusaError(error, "getPaymentStatus", "merchant", this.logger_)
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.getPaymentStatus(input)
    return { data }
  }

  // ---------------------------------------------------------------- management

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    try {
      const current = this.verified(input.data)
      const key = input.context?.idempotency_key
      if (isSingleStep(current.transaction_type)) return { data: current } // taken at authorization
      if (key && current.captures?.some((c) => c.key === key)) return { data: current } // already done
      const parent = this.requireTransaction(current, "capture")
      // Medusa passes no amount to capturePayment: it is on the capture row Medusa created just before (id = key).
      const amount = (await this.captureAmountMinor(key, current)) ?? this.remainingToCapture(current)
      const result = await this.manage("CAPTURE", current, parent, amount, key)
      return { data: { ...current, captures: [...(current.captures ?? []), record(key, amount, result)] } }
    } catch (error) {
      throw toMedusaError(error, "capturePayment", "merchant", this.logger_)
    }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    try {
      const current = this.verified(input.data)
      const key = input.context?.idempotency_key
      if (key && current.refunds?.some((r) => r.key === key)) return { data: current }
      const parent = this.requireTransaction(current, "refund")
      const amount = toMinorUnits(input.amount as MoneyInput, current.currency_code)
      // A refund made outside Medusa (gateway dashboard), recorded by the webhook workflow: never refund again.
      const external = await this.externalRefundOf(key)
      if (external)
        return { data: { ...current, refunds: [...(current.refunds ?? []), { key: key!, transaction_id: external, amount_minor: amount, kind: "external" as const }] } }
      const result = await this.manage("REFUND", current, parent, amount, key)
      return { data: { ...current, refunds: [...(current.refunds ?? []), record(key, amount, result)] } }
    } catch (error) {
      throw toMedusaError(error, "refundPayment", "merchant", this.logger_)
    }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    try {
      const current = this.verified(input.data)
      if (!current.transaction_id || current.void) return { data: current } // nothing taken, or already voided
      const found = await this.client.status.transaction(current.transaction_id)
      if (!found) return { data: current }
      const tx = found.transaction
      if (tx.status === "CANCELED") return { data: { ...current, gateway_status: "CANCELED" } } // already done
      if (isFailedStatus(tx.status)) return { data: { ...current, gateway_status: tx.status } } // nothing to release
      const type = gatewayTransactionType(tx.transaction_type)
      if (isSingleStep(type))
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          `Payment ${current.transaction_id} was a ${type} (money taken in one step): it cannot be voided. Refund it instead.`,
        )
      const key = input.context?.idempotency_key
      const result = await this.manage("VOID", current, tx.id, current.amount_minor, key)
      return { data: { ...current, gateway_status: "CANCELED", void: record(key, current.amount_minor, result) } }
    } catch (error) {
      throw toMedusaError(error, "cancelPayment", "merchant", this.logger_)
    }
  }

  // ---------------------------------------------------------------- saved cards

  async createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    const existing = (input.context.account_holder as { data?: Record<string, unknown> } | undefined)?.data?.id
    if (typeof existing === "string" && existing) return { id: existing, data: { id: existing } }
    const c = input.context.customer
    try {
      const created = await this.client.customers.create({
        email: c.email,
        ...(c.first_name ? { first_name: c.first_name.slice(0, 255) } : {}),
        ...(c.last_name ? { last_name: c.last_name.slice(0, 255) } : {}),
        ...(c.phone && isPossibleE164(c.phone) ? { phone: c.phone } : {}),
      })
      return { id: created.id, data: { id: created.id } }
    } catch (error) {
      throw toMedusaError(error, "createAccountHolder", "shopper", this.logger_)
    }
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    const customerId = input.context?.customer?.id ?? (await this.customerOfAccountHolder(input.context))
    if (!customerId || !this.knex_) return []
    const cards = await listSavedCards(this.knex_, { customer_id: customerId })
    return cards.map((card) => ({
      id: card.payment_method_id,
      data: { saved_card_id: card.payment_method_id, brand: card.brand, masked: card.masked, last_4: card.last_4, exp_month: card.exp_month, exp_year: card.exp_year },
    }))
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    try {
      const deleted = await this.client.storedMethods.delete(input.data.id)
      return { data: { id: deleted.id, status: deleted.status } }
    } catch (error) {
      throw toMedusaError(error, "deletePaymentMethod", "shopper", this.logger_)
    }
  }

  /** Gateway webhooks arrive at our own route (/hooks/pgs/webhooks), not Medusa's generic one. */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }

  // ---------------------------------------------------------------- hooks: what a method family changes

  /** Attempt 1 from the storefront's initiate data. Cards: Embedded Fields, or Direct API with a payment method. */
  protected async startAttempt(raw: Record<string, unknown>, amount: MoneyInput, currencyCode: string, context: PaymentProviderContext | undefined): Promise<PgsSessionData> {
    const parsed = initiateInput.safeParse(raw)
    if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid PGS payment data: ${describeIssues(parsed.error)}`)
    return this.newAttempt(parsed.data, 1, amount, currencyCode, context)
  }

  /** The next attempt after the amount or currency changed, carrying what the shopper chose. */
  protected async restartAttempt(current: PgsSessionData, amount: MoneyInput, currencyCode: string, context: PaymentProviderContext | undefined): Promise<PgsSessionData> {
    const restart: InitiateInput = {
      session_id: current.session_id,
      browser_info: current.browser_info,
      save_card: current.save_card,
      simulated_flow: current.simulated_flow,
    }
    const secrets = this.sealer.open(current.sealed, current.session_id)
    return this.newAttempt(restart, current.attempt + 1, amount, currencyCode, context, { carried: current, secrets })
  }

  /** Cart completion before any transaction exists: Embedded Fields has not been paid; Direct API authorizes now. */
  protected async authorizeFresh(current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
    if (current.integration === "hosted_payment_page") return authorizeHosted(this.hostedPageDeps(), current, context)
    if (current.integration === "embedded_fields")
      return { status: PaymentSessionStatus.REQUIRES_MORE, data: { ...current, error: { code: "NOT_PAID", message: "The shopper has not paid yet." } } }
    return this.authorizeDirect(current, context)
  }

  /** Whether an open (CREATED/PENDING) transaction still waits on the shopper rather than on the provider. */
  protected awaitingShopper(current: PgsSessionData, tx: Transaction): boolean {
    // Hosted page: CREATED is the shopper still authenticating there; PENDING waits on the gateway.
    if (current.integration === "hosted_payment_page") return tx.status === "CREATED"
    // Embedded: an open transaction is 3-D Secure inside the iframe. Direct: only while a next step is recorded.
    return current.integration === "embedded_fields" || !!current.next_action
  }

  /** The description the gateway shows the shopper (1 to 100 characters). */
  protected describe(reference: string): string {
    return `Order payment ${reference}`.slice(0, 100)
  }

  /** Where the gateway sends the shopper back to: the storefront's return page, told which session it was. */
  protected returnUrl(current: Pick<PgsSessionData, "session_id">, outcome?: "success" | "error" | "cancel"): string {
    const url = new URL(`${trimSlash(this.options_.storeUrl)}/checkout/return`)
    url.searchParams.set("pgs_session", current.session_id)
    if (outcome) url.searchParams.set("pgs_outcome", outcome)
    return url.toString()
  }

  /** The terminal settings that serve this session's currency now (settings change without a restart). */
  protected terminalFor(current: Pick<PgsSessionData, "currency_code">) {
    return chooseTerminal(this.knex_, this.options_, current.currency_code, (m) => this.logger_.warn(m))
  }

  /** The storefront's return page, with a hint of the outcome where the gateway has one URL per outcome. */
  protected returnUrls(current: Pick<PgsSessionData, "session_id">): ReturnUrls {
    return { success: this.returnUrl(current, "success"), error: this.returnUrl(current, "error"), cancel: this.returnUrl(current, "cancel"), any: this.returnUrl(current) }
  }

  /** A gateway refusal of the request (validation, bad request) is the shopper's failed payment; anything else is thrown. */
  protected refusal(current: PgsSessionData, error: unknown): AuthorizePaymentOutput {
    if (error instanceof MedusaError) throw error
    if (isGatewayError(error) && (error.type === "validation" || error.type === "bad_request")) {
      this.logger_.warn(`[pgs] payment refused for ${current.session_id}: ${error.merchantMessage}`)
      return { status: PaymentSessionStatus.ERROR, data: { ...current, error: { code: "REFUSED", message: error.shopperMessage } } }
    }
    throw toMedusaError(error, "authorizePayment", "shopper", this.logger_)
  }

  private hostedPageDeps(): HostedPageDeps {
    return {
      client: this.client,
      secrets: (current) => this.sealer.open(current.sealed, current.session_id),
      terminalFor: (current) => this.terminalFor(current),
      returnUrls: (current) => this.returnUrls(current),
      describe: (reference) => this.describe(reference),
      attach: (current, id) => this.attachTransaction(current, id),
      refusal: (current, error) => this.refusal(current, error),
      warn: (message) => this.logger_.warn(message),
    }
  }

  /** Session, reference, attempt, terminal, amount and currency of a new attempt, with their integrity seal. */
  protected async attemptCore(sessionId: string, attempt: number, amount: MoneyInput, currencyCode: string) {
    const currency = currencyCode.toLowerCase()
    const amountMinor = toMinorUnits(amount, currency)
    const reference = gatewayReferenceFor(sessionId, attempt)
    const terminal = await this.terminalFor({ currency_code: currency })
    return { terminal, sessionId, reference, attempt, currency, amountMinor }
  }

  /** The integrity-sealed fields every session carries. */
  protected sealedCore(core: AttemptCore): AttemptCore & { integrity: string } {
    const fields: AttemptCore = {
      session_id: core.session_id,
      reference: core.reference,
      attempt: core.attempt,
      terminal_id: core.terminal_id,
      transaction_type: core.transaction_type,
      currency_code: core.currency_code,
      amount_minor: core.amount_minor,
    }
    return { ...fields, integrity: this.sealer.integrity(fields) }
  }

  // ---------------------------------------------------------------- internals: sessions

  /** Builds the session data of one attempt: a gateway session (Embedded Fields) or a prepared Direct API payment. */
  private async newAttempt(
    input: InitiateInput,
    attempt: number,
    amount: MoneyInput,
    currencyCode: string,
    context: PaymentProviderContext | undefined,
    restart?: { carried: PgsSessionData; secrets: SealedSecrets },
  ): Promise<PgsSessionData> {
    const { terminal, sessionId, reference, currency, amountMinor } = await this.attemptCore(input.session_id, attempt, amount, currencyCode)
    const direct = restart ? restart.carried.integration === "direct_api" : input.payment_method !== undefined
    // A terminal set to the hosted payment page takes the card there (nothing is sent before cart completion).
    const hosted = restart ? restart.carried.integration === "hosted_payment_page" : !direct && terminal.integration_type === "HOSTED_PAYMENT_PAGE"
    if (input.simulated_flow && this.options_.environment !== "test")
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.simulated_flow is accepted only when the provider's environment is \"test\"")

    const base: PgsSessionData = {
      ...this.sealedCore({
        session_id: sessionId,
        reference,
        attempt,
        terminal_id: terminal.terminal_id,
        transaction_type: terminal.transaction_type,
        currency_code: currency,
        amount_minor: amountMinor,
      }),
      integration: direct ? "direct_api" : hosted ? "hosted_payment_page" : "embedded_fields",
      ...(input.simulated_flow ? { simulated_flow: input.simulated_flow } : {}),
    }

    if (hosted) {
      if (input.save_card) throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.save_card is not possible on the hosted payment page")
      return { ...base, ...(terminal.locale ? { locale: terminal.locale } : {}) }
    }
    if (!direct) {
      if (input.save_card)
        throw new MedusaError(
          MedusaError.Types.INVALID_DATA,
          "data.save_card is not possible with Embedded Fields: the gateway's session endpoint has no tokenization. Pay with the Direct API to save a card.",
        )
      const session = await this.client.sessions.create({
        terminal_id: terminal.terminal_id,
        reference,
        description: this.describe(reference),
        currency: currency.toUpperCase(),
        amount: amountMinor,
        transaction_type: terminal.transaction_type,
        return_url: this.returnUrl({ session_id: sessionId }),
        ...(customerOf(context) ? { customer: customerOf(context) } : {}),
      })
      return {
        ...base,
        gateway_session_id: session.id,
        client_key: this.options_.clientKey,
        environment: this.options_.environment,
        script_url: this.options_.embeddedFieldsScriptUrl ?? `${trimSlash(this.options_.apiUrl)}/embedded-fields.js`,
        ...(terminal.locale ? { locale: terminal.locale } : {}),
        instalments: terminal.instalments,
        ...(terminal.css_variables ? { css_variables: terminal.css_variables } : {}),
      }
    }

    // Direct API: nothing is sent yet (authorize runs at cart completion); validate and seal the credentials now.
    let publicMethod: PgsSessionData["payment_method"]
    let secrets: SealedSecrets
    let gatewayCustomerId: string | undefined
    if (restart) {
      publicMethod = restart.carried.payment_method
      secrets = { payment_method: restart.secrets.payment_method }
      gatewayCustomerId = restart.carried.gateway_customer_id
    } else {
      if (!input.browser_info)
        throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.browser_info is required for card payments through the Direct API (3-D Secure needs it)")
      const prepared = await prepareDirectMethod({ client: this.client, knex: this.knex_, options: this.options_ }, input.payment_method!, context)
      publicMethod = prepared.publicMethod
      secrets = { payment_method: prepared.gatewayMethod }
      gatewayCustomerId = prepared.gatewayCustomerId
      if (input.save_card) {
        const holder = accountHolderId(context)
        if (!holder)
          throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.save_card needs a logged-in customer: a card is saved for the customer's gateway account")
        gatewayCustomerId = holder
      }
    }
    return {
      ...base,
      payment_method: publicMethod,
      ...(input.save_card ? { save_card: true } : {}),
      ...(input.browser_info ? { browser_info: input.browser_info } : {}),
      ...(restart?.carried.customer_ip ? { customer_ip: restart.carried.customer_ip } : {}),
      ...(gatewayCustomerId ? { gateway_customer_id: gatewayCustomerId } : {}),
      sealed: this.sealer.seal(secrets, sessionId),
    }
  }

  /**
   * Medusa stores `{...storefront data, ...ours}`, and its JSON column update merges nested objects too
   * (payment_method {type, token} + our {type} kept the token). So every storefront key we did not issue
   * ourselves, at any depth, is written back as null: nothing unchecked or secret stays in the public data.
   */
  private withStorefrontKeysCleared(sent: Record<string, unknown> | undefined, data: PgsSessionData): Record<string, unknown> {
    return blankUnissued(sent ?? {}, data as Record<string, unknown>)
  }

  /** Parses data that comes back from Medusa and checks it was made by this server for this payment. */
  protected verified(data: unknown): PgsSessionData {
    const current = parseSessionData(data)
    if (!this.sealer.verifyIntegrity(current))
      throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session data was altered: its reference, terminal, amount or currency no longer match what this server issued")
    return current
  }

  // ---------------------------------------------------------------- internals: authorization

  private async authorizeDirect(current: PgsSessionData, context: PaymentProviderContext | undefined): Promise<AuthorizePaymentOutput> {
    const secrets = this.sealer.open(current.sealed, current.session_id)
    if (!secrets.payment_method) throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session has no payment method to authorize")
    if (!current.browser_info) throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session has no browser_info")
    const notificationUrl = `${trimSlash(this.options_.backendUrl)}/hooks/pgs/three-ds/notification?session_id=${encodeURIComponent(current.session_id)}`
    const body: AuthorizeRequest = {
      reference: current.reference,
      terminal_id: current.terminal_id,
      description: this.describe(current.reference),
      currency: current.currency_code.toUpperCase(),
      amount: current.amount_minor,
      transaction_type: cardTransactionType(current.transaction_type),
      payment_method: secrets.payment_method as PaymentMethodInput,
      browser_info: current.browser_info,
      return_url: this.returnUrl(current),
      metadata: { medusa_payment_session_id: current.session_id, ...(current.simulated_flow ? { simulated_flow: current.simulated_flow } : {}) },
      ...(current.customer_ip ? { customer_ip: current.customer_ip } : {}),
      ...(current.gateway_customer_id ? { customer: { id: current.gateway_customer_id, ...customerOf(context) } } : {}),
      ...(current.save_card ? { tokenization: { save_card_for_future_payments: true, tokenize_for: "CUSTOMER_INITIATED_TRANSACTION" as const } } : {}),
      // The gateway honours an override only over https; on plain-http development hosts its own page is used.
      ...(isValidNotificationUrl(notificationUrl) ? { options: { three_ds: { notification_url: notificationUrl } } } : {}),
    }
    let result: ExecutionResult
    try {
      // Idempotent by reference: a repeat (concurrent completion, retry) returns the same transaction.
      result = await this.client.payments.authorize(body)
    } catch (error) {
      return this.refusal(current, error)
    }
    return this.applyStep(current, stepOutcome(result, current.transaction_type))
  }

  /** A session with a transaction: the gateway's status decides (3-D Secure still pending stays requires_more). */
  protected async refreshFromGateway(current: PgsSessionData): Promise<AuthorizePaymentOutput> {
    const found = await this.client.status.transaction(current.transaction_id!)
    if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Gateway transaction ${current.transaction_id} was not found`)
    const tx = found.transaction
    const open = tx.status === "CREATED" || tx.status === "PENDING"
    const awaitingShopper = open && this.awaitingShopper(current, tx)
    const outcome = finishedOutcome(tx, current.transaction_type, awaitingShopper)
    return this.applyStep(current, outcome)
  }

  protected applyStep(current: PgsSessionData, outcome: StepOutcome): { status: PaymentSessionStatus; data: PgsSessionData } {
    const patch = Object.fromEntries(Object.entries(outcome.patch).filter(([, v]) => v !== undefined))
    let sealed = current.sealed
    if (current.integration === "direct_api") {
      const secrets = this.sealer.open(current.sealed, current.session_id)
      sealed = this.sealer.seal({ ...secrets, payment_data: outcome.paymentData ?? undefined }, current.session_id)
    }
    return { status: outcome.status, data: { ...current, ...patch, ...(sealed ? { sealed } : {}) } }
  }

  // ---------------------------------------------------------------- internals: our routes' requests

  private async handleServerRequest(current: PgsSessionData, request: ServerRequest): Promise<UpdatePaymentOutput> {
    const withIp: PgsSessionData = request.customer_ip ? { ...current, customer_ip: request.customer_ip } : current
    switch (request.kind) {
      case "client_info": {
        // The payer's details are personal data: sealed, not public session data.
        const secrets = request.payer ? this.sealer.open(current.sealed, current.session_id) : null
        return {
          data: {
            ...withIp,
            ...(request.browser_info ? { browser_info: request.browser_info } : {}),
            ...(secrets ? { sealed: this.sealer.seal({ ...secrets, payer: definedOnly(request.payer!) }, current.session_id) } : {}),
          },
        }
      }
      case "attach_transaction":
        return this.attachTransaction(withIp, request.transaction_id)
      case "request_authentication": {
        const next = this.requireNext(withIp, "fingerprint")
        const paymentData = this.paymentData(withIp)
        return this.continueThreeDS(withIp, () =>
          this.client.threeDS.requestAuthentication(next.three_ds_server_trans_id, {
            fingerprint_result: fingerprintResult(request.method_completed),
            payment_data: paymentData,
          }),
        )
      }
      case "authentication_completed": {
        const next = this.requireNext(withIp, "challenge")
        const paymentData = this.paymentData(withIp)
        return this.continueThreeDS(withIp, () =>
          this.client.threeDS.authenticationCompleted({ payment_data: paymentData, session_id: next.three_ds_server_trans_id, trans_status: request.trans_status }),
        )
      }
      case "cres": {
        const next = this.requireNext(withIp, "challenge")
        const cres = parseCres(request.cres)
        if (cres.threeDSServerTransID !== next.three_ds_server_trans_id)
          throw new MedusaError(MedusaError.Types.CONFLICT, "The cres belongs to another 3-D Secure authentication")
        const paymentData = this.paymentData(withIp)
        return this.continueThreeDS(withIp, () =>
          this.client.threeDS.authenticationCompleted({ payment_data: paymentData, session_id: cres.threeDSServerTransID, trans_status: cres.transStatus }),
        )
      }
    }
  }

  /**
   * The storefront says which transaction its embedded payment produced. Trust nothing: the gateway must know the
   * transaction and it must carry this session's reference, terminal, amount, currency and transaction type.
   */
  protected async attachTransaction(current: PgsSessionData, transactionId: string): Promise<UpdatePaymentOutput> {
    // Only where the shopper pays on a gateway page that does not tell us the transaction up front.
    if (current.integration !== "embedded_fields" && current.integration !== "hosted_payment_page")
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Only Embedded Fields and hosted payment page sessions take a transaction from outside")
    if (current.transaction_id && current.transaction_id !== transactionId && current.gateway_status && !isFailedStatus(current.gateway_status))
      throw new MedusaError(MedusaError.Types.CONFLICT, "Another transaction is already attached to this payment session")
    const found = await this.client.status.transaction(transactionId)
    if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, "The gateway does not know this transaction")
    const tx = found.transaction
    const mismatches = [
      tx.reference !== current.reference && "reference",
      tx.terminal_id !== current.terminal_id && "terminal",
      tx.amount !== current.amount_minor && "amount",
      tx.currency !== current.currency_code.toUpperCase() && "currency",
      tx.transaction_type !== current.transaction_type && "transaction type",
    ].filter(Boolean)
    if (mismatches.length)
      throw new MedusaError(MedusaError.Types.CONFLICT, `The transaction does not belong to this payment session (${mismatches.join(", ")} differ)`)
    const open = tx.status === "CREATED" || tx.status === "PENDING"
    const outcome = finishedOutcome(tx, current.transaction_type, open && this.awaitingShopper(current, tx))
    return this.applyStep(current, outcome)
  }

  /** request-authentication and authentication-completed are never retried; after a lost answer the status decides. */
  private async continueThreeDS(current: PgsSessionData, call: () => Promise<ExecutionResult>): Promise<UpdatePaymentOutput> {
    try {
      return this.applyStep(current, stepOutcome(await call(), current.transaction_type))
    } catch (error) {
      if (!isGatewayError(error) || !current.transaction_id) throw error
      const found = await this.client.status.transaction(current.transaction_id).catch(() => null)
      if (found && !["CREATED", "PENDING"].includes(found.transaction.status))
        return this.applyStep(current, finishedOutcome(found.transaction, current.transaction_type))
      throw error
    }
  }

  private requireNext<T extends "fingerprint" | "challenge">(current: PgsSessionData, type: T) {
    const next = current.next_action
    if (!next || next.type !== type)
      throw new MedusaError(MedusaError.Types.CONFLICT, `This payment session is not waiting for a 3-D Secure ${type} (next step: ${next?.type ?? "none"})`)
    return next as Extract<NonNullable<PgsSessionData["next_action"]>, { type: T }>
  }

  private paymentData(current: PgsSessionData): string {
    const value = this.sealer.open(current.sealed, current.session_id).payment_data
    if (!value) throw new MedusaError(MedusaError.Types.CONFLICT, "This payment session has no 3-D Secure step in progress")
    return value
  }

  // ---------------------------------------------------------------- internals: management

  private requireTransaction(current: PgsSessionData, what: string): string {
    if (!current.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cannot ${what}: the payment has no gateway transaction`)
    return current.transaction_id
  }

  /**
   * CAPTURE, REFUND or VOID. A declined operation (e.g. refund over what remains) is a MedusaError. An unknown
   * outcome (answer lost after sending) is THROWN: Medusa then deletes its capture/refund row. We chose that over
   * returning success because a missing record is repaired when the gateway's management webhook (which echoes
   * our idempotency key) arrives, while a recorded capture that never happened can never be detected. The error
   * names the idempotency key so the merchant can reconcile before retrying.
   */
  private async manage(type: "CAPTURE" | "REFUND" | "VOID", current: PgsSessionData, parent: string, amount: number, key: string | undefined): Promise<ManageResult> {
    const result = await this.client.modifications
      .manage(
        {
          transaction_type: type,
          terminal_id: current.terminal_id,
          reference: current.reference,
          parent_transaction_id: parent,
          amount,
          currency: current.currency_code.toUpperCase(),
          metadata: { medusa_payment_session_id: current.session_id },
        },
        key ? { idempotencyKey: key } : {},
      )
      .catch(async (error: unknown) => {
        if (error instanceof GatewayOutcomeUnknownError) await rememberLostAnswer(this.knex_, this.logger_, error)
        throw error
      })
    if (result.kind === "applied" && result.transaction.status !== "APPROVED")
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The gateway declined the ${type}: ${result.transaction.response_message ?? result.transaction.status}`,
      )
    return result
  }

  /** The amount of Medusa's capture row, or null (then what remains is captured). */
  private async captureAmountMinor(captureId: string | undefined, current: PgsSessionData): Promise<number | null> {
    if (!captureId || !this.knex_) return null
    return captureAmountMinor(this.knex_, captureId, current.currency_code).catch((error: Error) => {
      this.logger_.warn(`[pgs] capture ${captureId}: amount not readable (${error.message}); capturing what remains`)
      return null
    })
  }

  private async externalRefundOf(refundId: string | undefined): Promise<string | null> {
    if (!refundId || !this.knex_) return null
    return externalRefundOf(this.knex_, refundId).catch((error: Error) => {
      this.logger_.warn(`[pgs] refund ${refundId}: metadata not readable (${error.message})`)
      return null
    })
  }

  private remainingToCapture(current: PgsSessionData): number {
    return current.amount_minor - (current.captures ?? []).reduce((sum, c) => sum + c.amount_minor, 0)
  }

  private async customerOfAccountHolder(context: PaymentProviderContext | undefined): Promise<string | null> {
    const holderId = (context?.account_holder as { id?: string } | undefined)?.id
    if (!holderId || !this.knex_) return null
    return customerOfAccountHolder(this.knex_, holderId).catch(() => null)
  }

}

function record(key: string | undefined, amount: number, result: ManageResult) {
  return {
    key: key ?? result.idempotencyKey,
    transaction_id: result.kind === "applied" ? result.transaction.id : null,
    amount_minor: amount,
    kind: result.kind,
  }
}

function optional<T>(cradle: Record<string, unknown>, key: string): T | null {
  try {
    return (cradle[key] as T) ?? null
  } catch {
    return null // awilix throws for keys that are not registered
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, "")

function accountHolderId(context: PaymentProviderContext | undefined): string | null {
  const id = context?.account_holder?.data?.id
  return typeof id === "string" && id ? id : null
}

function customerOf(context: PaymentProviderContext | undefined) {
  const c = context?.customer
  if (!c) return undefined
  return {
    ...(c.email ? { email: c.email } : {}),
    ...(c.first_name ? { first_name: c.first_name } : {}),
    ...(c.last_name ? { last_name: c.last_name } : {}),
  }
}

