/**
 * The PGS payment provider as Medusa sees it: each method checks what Medusa hands over (session data made and
 * sealed by this server), delegates to the part that knows the flow, and turns failures into MedusaErrors.
 * - sessions: start.ts (which integration), integrations/ (embedded fields, Direct API, hosted page, redirect)
 * - status reads and attaching a transaction: attach-transaction.ts, next-step.ts
 * - capture, refund, void: management.ts; saved cards: saved-cards.ts; our routes' requests: route-requests.ts
 * A provider class per family only names its family (card.ts, alternative.ts).
 */
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
import type { MoneyInput } from "../../gateway"
import { medusaAmountInMinorUnits } from "../../lib/medusa-amount"
import { parseOptions, type PgsProviderOptions } from "../../modules/pgs/options"
import { PGS_REQUEST_KEY, serverRequest } from "../../payments/server-requests"
import type { PgsSessionData } from "../../payments/session-data"
import { toStoredSessionData } from "../../payments/stored-session-data"
import { applyStep, verified } from "./attempt"
import { providerDeps, type ProviderDeps } from "./deps"
import { describeIssues } from "./initiate-input"
import { integrationOf } from "./integrations"
import { capture, refund, voidPayment } from "./management"
import { finishedOutcome } from "./next-step"
import { serveRouteRequest } from "./route-requests"
import { rememberRefusedTerminalOf } from "../../payments/terminal-refused"
import { createAccountHolder, deletePaymentMethod, listPaymentMethods } from "./saved-cards"
import { reportUnauthorized, retireSession } from "./session-records"
import { blankUnissued } from "./storefront-data"
import { refuseUnstorable } from "./storable-input"
import { restartSession, startSession, type ProviderFamily } from "./start"
import { toMedusaError } from "./to-medusa-error"

export abstract class PgsProvider extends AbstractPaymentProvider<PgsProviderOptions> {
  protected abstract readonly family: ProviderFamily
  protected readonly deps: ProviderDeps

  static override validateOptions(options: Record<string, unknown>): void {
    parseOptions(options)
  }

  protected constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    const parsed = parseOptions(options)
    super(cradle, parsed)
    this.deps = providerDeps(cradle, parsed)
  }

  // ---------------------------------------------------------------- sessions

  async initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput> {
    try {
      refuseUnstorable(input.data)
      const data = await startSession(this.deps, this.family, input.data ?? {}, input.amount as MoneyInput, input.currency_code, input.context)
      // Medusa stores {...storefront data, ...ours} and merges nested objects: every key we did not issue is nulled.
      return { id: data.gateway_session_id ?? data.reference, data: blankUnissued(input.data ?? {}, toStoredSessionData(data)), status: PaymentSessionStatus.PENDING }
    } catch (error) {
      throw toMedusaError(error, "initiatePayment", "shopper", this.deps.logger)
    }
  }

  async updatePayment(input: UpdatePaymentInput): Promise<UpdatePaymentOutput> {
    const raw = (input.data ?? {}) as Record<string, unknown>
    try {
      refuseUnstorable(raw)
      const { [PGS_REQUEST_KEY]: request, ...rest } = raw
      const current = verified(this.deps, rest)
      if (request !== undefined) {
        const parsed = serverRequest.safeParse(request)
        if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, describeIssues(parsed.error, PGS_REQUEST_KEY))
        return stored(await serveRouteRequest(this.deps, current, parsed.data), raw)
      }
      const amountMinor = medusaAmountInMinorUnits(input.amount as MoneyInput, input.currency_code)
      if (amountMinor === current.amount_minor && input.currency_code.toLowerCase() === current.currency_code) return stored({ data: current }, raw)
      // The amount or currency changed: the gateway object is bound to both, so start a new attempt (new reference).
      const data = await restartSession(this.deps, this.family, current, input.amount as MoneyInput, input.currency_code, input.context)
      return stored({ data, status: PaymentSessionStatus.PENDING }, raw)
    } catch (error) {
      throw toMedusaError(error, "updatePayment", "shopper", this.deps.logger)
    }
  }

  async deletePayment(input: DeletePaymentInput): Promise<DeletePaymentOutput> {
    // Kept on record, so that money the gateway takes for it later is provably ours and goes back (late refunds).
    await retireSession(this.deps, input.data)
    return { data: input.data ?? {} }
  }

  async authorizePayment(input: AuthorizePaymentInput): Promise<AuthorizePaymentOutput> {
    let outcome: AuthorizePaymentOutput
    try {
      const current = verified(this.deps, input.data)
      outcome = current.transaction_id ? await this.refreshFromGateway(current) : await integrationOf(current).authorize(this.deps, current, input.context)
    } catch (error) {
      throw toMedusaError(error, "authorizePayment", "shopper", this.deps.logger)
    }
    // A refusal of the terminal itself is the shop admin's to fix (nothing on the success path reads the database).
    if (outcome.status === PaymentSessionStatus.ERROR) await rememberRefusedTerminalOf(this.deps.knex, this.deps.logger, outcome.data as PgsSessionData)
    await reportUnauthorized(this.deps, outcome, input.data)
    return stored(outcome, input.data)
  }

  async getPaymentStatus(input: GetPaymentStatusInput): Promise<GetPaymentStatusOutput> {
    try {
      const current = verified(this.deps, input.data)
      if (!current.transaction_id) return stored({ status: current.next_action ? PaymentSessionStatus.REQUIRES_MORE : PaymentSessionStatus.PENDING, data: current }, input.data)
      return stored(await this.refreshFromGateway(current), input.data)
    } catch (error) {
      throw toMedusaError(error, "getPaymentStatus", "merchant", this.deps.logger)
    }
  }

  async retrievePayment(input: RetrievePaymentInput): Promise<RetrievePaymentOutput> {
    const { data } = await this.getPaymentStatus(input)
    return { data }
  }

  /** A session with a transaction: the gateway's status decides (a step still waiting on the shopper stays requires_more). */
  private async refreshFromGateway(current: PgsSessionData): Promise<{ status: PaymentSessionStatus; data: PgsSessionData }> {
    const found = await this.deps.client.status.transaction(current.transaction_id!)
    if (!found) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Gateway transaction ${current.transaction_id} was not found`)
    const tx = found.transaction
    const open = tx.status === "CREATED" || tx.status === "PENDING"
    const awaitingShopper = open && integrationOf(current).awaitingShopper(current, tx)
    return applyStep(this.deps, current, finishedOutcome(tx, current.transaction_type, awaitingShopper))
  }

  // ---------------------------------------------------------------- management

  async capturePayment(input: CapturePaymentInput): Promise<CapturePaymentOutput> {
    try {
      return stored(await capture(this.deps, verified(this.deps, input.data), input), input.data)
    } catch (error) {
      throw toMedusaError(error, "capturePayment", "merchant", this.deps.logger)
    }
  }

  async refundPayment(input: RefundPaymentInput): Promise<RefundPaymentOutput> {
    try {
      return stored(await refund(this.deps, verified(this.deps, input.data), input), input.data)
    } catch (error) {
      throw toMedusaError(error, "refundPayment", "merchant", this.deps.logger)
    }
  }

  async cancelPayment(input: CancelPaymentInput): Promise<CancelPaymentOutput> {
    try {
      return stored(await voidPayment(this.deps, verified(this.deps, input.data), input), input.data)
    } catch (error) {
      throw toMedusaError(error, "cancelPayment", "merchant", this.deps.logger)
    }
  }

  // ---------------------------------------------------------------- saved cards

  async createAccountHolder(input: CreateAccountHolderInput): Promise<CreateAccountHolderOutput> {
    try {
      return await createAccountHolder(this.deps, input)
    } catch (error) {
      throw toMedusaError(error, "createAccountHolder", "shopper", this.deps.logger)
    }
  }

  async listPaymentMethods(input: ListPaymentMethodsInput): Promise<ListPaymentMethodsOutput> {
    return listPaymentMethods(this.deps, input)
  }

  async deletePaymentMethod(input: DeletePaymentMethodInput): Promise<DeletePaymentMethodOutput> {
    try {
      return await deletePaymentMethod(this.deps, input)
    } catch (error) {
      throw toMedusaError(error, "deletePaymentMethod", "shopper", this.deps.logger)
    }
  }

  /** Gateway webhooks arrive at our own route (/hooks/pgs/webhooks), not Medusa's generic one. */
  async getWebhookActionAndData(_payload: ProviderWebhookPayload["payload"]): Promise<WebhookActionResult> {
    return { action: PaymentActions.NOT_SUPPORTED }
  }
}

/** What Medusa stores of a provider's answer: its data in the stored form, beside the data Medusa handed over (stored-session-data.ts). */
function stored<T extends { data?: Record<string, unknown> | PgsSessionData }>(outcome: T, storedBefore: unknown): T {
  return outcome.data ? { ...outcome, data: toStoredSessionData(outcome.data, storedBefore) } : outcome
}
