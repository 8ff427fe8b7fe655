/**
 * The pgs module's service: CRUD over the models (MedusaService) plus the few operations that need more than
 * CRUD — recording a webhook delivery exactly once, recording a payout once per reference and moving it forward only.
 */
import { MedusaService } from "@medusajs/framework/utils"
import {
  FINAL_PAYOUT_STATUSES,
  PAYOUT_STATUSES,
  PAYOUT_TABLE,
  PgsPayout,
  PgsSavedCard,
  PgsTerminalSetting,
  PgsWebhookEvent,
  PgsFollowUp,
  PgsRetiredSession,
  type PayoutStatus,
} from "./models"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { InferTypeOf } from "@medusajs/framework/types"
import { toMinorUnits, type PgsClient } from "../../gateway"
import { cardFieldsScriptUrl, payoutTerminalFrom, webhookReceiverFrom, type PgsProviderOptions } from "./options"
import { insertDeliveries } from "./webhook-queue"
import { closeSharedGatewayClient, moduleGatewayOptions, sharedGatewayClient } from "./gateway"
import type { IEventBusModuleService, Logger, ConfigModule } from "@medusajs/framework/types"
import { emitWebhookReceived, type WebhookIntake } from "./webhook-intake/accept"
import { superviseWebhookReceiver, type SupervisedReceiver } from "./webhook-intake/receiver-supervisor"
import { GatewayRecordCheck } from "./webhook-intake/refused-by-key"
import { refusalTally } from "./webhook-intake/refusals"
import { checkGatewayCredentials, type CredentialsCheck } from "./credentials-check"
import type { NewWebhookEvent, RecordedWebhookEvent } from "./webhook-event-record"
import { DEFAULT_CARD_TESTING, type CardTestingOptions } from "./card-testing-options"

export type PgsPayoutRow = InferTypeOf<typeof PgsPayout>
export type NewPayout = Pick<
  PgsPayoutRow,
  "reference" | "terminal_id" | "method" | "transaction_type" | "currency_code" | "description" | "beneficiary_fingerprint"
> & { amount: string } & Partial<Pick<PgsPayoutRow, "masked" | "beneficiary_name" | "card_brand" | "metadata" | "created_by">>

/** A payout's amount in the gateway's minor units, from the exact stored value. */
export function payoutAmountMinor(payout: PgsPayoutRow): number {
  const raw = payout.raw_amount?.value
  return toMinorUnits(typeof raw === "string" || typeof raw === "number" ? raw : String(payout.amount), payout.currency_code)
}

/** What the gateway (or a webhook) told us about a payout; undefined fields are left as they are. */
export type PayoutProgress = {
  status: Exclude<PayoutStatus, "CREATING">
  transaction_id?: string
  processing_code?: string | null
  response_message?: string | null
  masked?: string | null
  card_brand?: string | null
  errors?: unknown[] | null
  note?: string | null
}

/** Never backwards: a final status never changes, and FAILED (nothing created) cannot replace what the gateway has. */
const MOVABLE_FROM: Record<PayoutProgress["status"], PayoutStatus[]> = Object.fromEntries(
  PAYOUT_STATUSES.filter((s) => s !== "CREATING").map((to) => [
    to,
    to === "FAILED" ? ["CREATING", "FAILED"] : PAYOUT_STATUSES.filter((from) => !FINAL_PAYOUT_STATUSES.has(from)),
  ]),
) as Record<PayoutProgress["status"], PayoutStatus[]>

export type FollowUpSettings = Pick<PgsProviderOptions, "refundLateApprovals" | "reconcileAfterMinutes" | "giveUpRedirectOrdersAfterHours" | "captureOnFulfillment" | "retentionDays" | "medusaCallWaitSeconds">

export type PayLinkSettings = { backendUrl: string; secret: string; validDays: number; savedCardConsent: boolean }

export type PayoutSettings = { terminalId: string | null; returnUrl: string; secret: string }

type InjectedDependencies = { __pg_connection__: Knex; logger: Logger; event_bus: IEventBusModuleService; configModule: ConfigModule }

export default class PgsModuleService extends MedusaService({ PgsTerminalSetting, PgsWebhookEvent, PgsSavedCard, PgsPayout, PgsFollowUp, PgsRetiredSession }) {
  protected readonly knex_: Knex
  protected readonly rawOptions_: unknown
  private client_: PgsClient | null = null
  private options_: PgsProviderOptions | null = null
  private receiver_: SupervisedReceiver | null = null
  private stopping_ = false
  private credentials_: { check: Promise<CredentialsCheck>; at: number } | null = null
  private refusedCheck_: GatewayRecordCheck | null = null
  // The module container's cradle: its entries resolve on access (the event bus from the application's container).
  private readonly deps_: InjectedDependencies

  constructor(deps: InjectedDependencies, options?: unknown) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.deps_ = deps
    this.knex_ = deps.__pg_connection__
    this.rawOptions_ = options
  }

  /** The options as medusa-config gave them (admin views mask the secrets before anything leaves the server). */
  get rawOptions(): unknown {
    return this.rawOptions_
  }

  /**
   * Medusa calls these at start and shutdown: the dedicated webhook receiver runs where HTTP is served (not in a
   * worker-only process); shutdown closes it and the client's keep-alive connections so the process can exit.
   */
  __hooks = {
    onApplicationStart: async () => {
      // Not awaited: a store must start while the gateway is down; a refusal is told once, naming the variables.
      void this.credentialsStatus().then((check) => {
        if (check.message && check.state !== "not_configured") this.deps_.logger.warn(`medusa-payment-pgs: ${check.message}.`)
      })
      await this.startWebhookReceiver()
    },
    onApplicationShutdown: async () => {
      this.stopping_ = true
      await this.receiver_?.stop()
      this.receiver_ = null
      if (this.client_) await closeSharedGatewayClient(this.client_)
      this.client_ = null
    },
  }

  /** What a webhook delivery needs, for the Medusa route and the dedicated receiver alike. */
  webhookIntake(): WebhookIntake {
    return {
      verifier: () => this.gateway().webhooks,
      knex: this.knex_,
      logger: this.deps_.logger,
      received: (id) => this.emitWebhooksReceived([id]),
      refusedByKey: (claimed) => this.gatewayRecordCheck().check(claimed),
    }
  }

  /** Refused deliveries checked against the gateway's own record before they tell the admin the key is wrong. */
  gatewayRecordCheck(): GatewayRecordCheck {
    const logger = this.deps_.logger
    this.refusedCheck_ ??= new GatewayRecordCheck(() => this.gateway(), () => refusalTally(this.knex_, logger).refused(), logger)
    return this.refusedCheck_
  }

  private emitWebhooksReceived(ids: string[]): Promise<void> {
    return emitWebhookReceived(this.deps_.event_bus, this.deps_.logger, ids)
  }

  /** The dedicated receiver's webhook URL when it runs (option `webhookReceiver`), else null. */
  get webhookReceiverUrl(): string | null {
    return this.receiver_?.current?.url ?? null
  }

  private async startWebhookReceiver(): Promise<void> {
    const settings = webhookReceiverFrom(this.rawOptions_)
    if (!settings || this.receiver_ || this.stopping_ || this.deps_.configModule.projectConfig.workerMode === "worker") return
    // Assigned before the first start settles, so a shutdown meanwhile stops it too.
    this.receiver_ = superviseWebhookReceiver({
      logger: this.deps_.logger,
      start: () => {
        let webhookPublicKeys: string | null = null
        let notConfigured: string | null = null
        try {
          this.gateway()
          webhookPublicKeys = this.options_!.webhookPublicKey ?? null
        } catch (error) {
          notConfigured = (error as Error).message
        }
        return {
          settings,
          knex: this.knex_,
          webhookPublicKeys,
          notConfigured,
          logger: this.deps_.logger,
          received: (ids: string[]) => this.emitWebhooksReceived(ids),
          refusedByKey: (claimed) => this.gatewayRecordCheck().check(claimed),
        }
      },
    })
    await this.receiver_.ready
  }

  /**
   * Whether the gateway accepts our credentials, checked with a token request of its own at most once a minute
   * (the admin's banner asks on every page load).
   */
  credentialsStatus(maxAgeMs = 60_000): Promise<CredentialsCheck> {
    if (!this.credentials_ || Date.now() - this.credentials_.at > maxAgeMs)
      this.credentials_ = { check: checkGatewayCredentials(this.rawOptions_), at: Date.now() }
    return this.credentials_.check
  }

  /** The gateway client (and its webhook verifier). Throws a configuration error naming each missing option. */
  gateway(): PgsClient {
    if (!this.client_) {
      const options = moduleGatewayOptions(this.rawOptions_)
      this.client_ = sharedGatewayClient(options, this.deps_.logger)
      this.options_ = options
    }
    return this.client_
  }

  /** The default payout terminal, where a card payout "returns" (never used: no 3-D Secure), and the key material. */
  payoutSettings(): PayoutSettings {
    this.gateway()
    const options = this.options_!
    return { terminalId: payoutTerminalFrom(this.rawOptions_), returnUrl: options.backendUrl, secret: options.clientSecret }
  }

  /** Pay links: where they point, how long they last, and the secret their signature is derived from (never shown). */
  payLinkSettings(): PayLinkSettings {
    this.gateway()
    const { backendUrl, clientSecret, payLinkValidDays, savedCardConsent } = this.options_!
    return { backendUrl, secret: clientSecret, validDays: payLinkValidDays, savedCardConsent }
  }

  /** The gateway's card-fields script (options embeddedFieldsScriptUrl, apiUrl): the store's method list names it. */
  cardFieldsScriptUrl(): string {
    this.gateway()
    return cardFieldsScriptUrl(this.options_!)
  }

  /**
   * The proxies whose X-Forwarded-For is believed (option trustedProxies; api/client-address.ts). None when the
   * options do not parse (told at boot and by every payment): the connection's address is then the client's.
   */
  trustedProxies(): PgsProviderOptions["trustedProxies"] {
    try {
      this.gateway()
      return this.options_!.trustedProxies
    } catch {
      return 0
    }
  }

  /**
   * The card-testing guard's thresholds and where its counters live: Redis when the store runs on it (projectConfig
   * redisUrl), else this database. Defaults when the gateway options do not parse (the guard runs all the same).
   */
  cardTestingSettings(): { options: CardTestingOptions; knex: Knex; redisUrl: string | null } {
    let options = DEFAULT_CARD_TESTING
    try {
      this.gateway()
      options = this.options_!.cardTesting
    } catch {
      // Misconfigured: told at boot and by every payment; the guard keeps its defaults.
    }
    return { options, knex: this.knex_, redisUrl: this.deps_.configModule.projectConfig.redisUrl ?? null }
  }

  /** What happens after the shopper left: late refunds, when to re-read a payment, when to give up an order, how long a management webhook waits for Medusa's own call. */
  followUpSettings(): FollowUpSettings {
    this.gateway()
    const { refundLateApprovals, reconcileAfterMinutes, giveUpRedirectOrdersAfterHours, captureOnFulfillment, retentionDays, medusaCallWaitSeconds } = this.options_!
    return { refundLateApprovals, reconcileAfterMinutes, giveUpRedirectOrdersAfterHours, captureOnFulfillment, retentionDays, medusaCallWaitSeconds }
  }

  /**
   * The payout with this reference: created now (`is_new`), or the one already there. Two concurrent requests with
   * one reference meet at the unique index: the loser reads the winner's row.
   */
  async recordPayout(input: NewPayout): Promise<{ payout: PgsPayoutRow; is_new: boolean }> {
    const existing = async () => (await this.listPgsPayouts({ reference: input.reference }))[0]
    const found = await existing()
    if (found) return { payout: found, is_new: false }
    try {
      // The amount goes in as the exact decimal string: bigNumber columns take it (their generated type says number).
      const row = { ...input, amount: input.amount as unknown as number, status: "CREATING" as const }
      return { payout: await this.createPgsPayouts(row), is_new: true }
    } catch (error) {
      const winner = await existing()
      if (winner) return { payout: winner, is_new: false }
      throw error
    }
  }

  /**
   * Applies what the gateway said, in one conditional UPDATE so a webhook and the request that created the payout
   * cannot move it backwards whatever their order. Returns false when the row was not movable (already final).
   */
  async advancePayout(id: string, progress: PayoutProgress): Promise<boolean> {
    const patch: Record<string, unknown> = { status: progress.status, updated_at: new Date() }
    for (const key of ["transaction_id", "processing_code", "response_message", "note"] as const)
      if (progress[key] !== undefined) patch[key] = progress[key]
    // The masked number and brand only ever get filled in: a status read may omit them.
    for (const key of ["masked", "card_brand"] as const) if (progress[key]) patch[key] = progress[key]
    if (progress.errors !== undefined) patch.errors = progress.errors === null ? null : JSON.stringify(progress.errors)
    const updated: unknown[] = await this.knex_(PAYOUT_TABLE)
      .update(patch)
      .where({ id })
      .whereIn("status", MOVABLE_FROM[progress.status])
      .returning("id")
    return updated.length > 0
  }

  /** Record one delivery once (the webhook route batches concurrent ones through insertDeliveries itself). */
  async recordWebhookEvent(input: NewWebhookEvent): Promise<RecordedWebhookEvent> {
    return (await insertDeliveries(this.knex_, [{ ...input, received_at: new Date() }]))[0]!
  }

}


export type PgsModuleServiceType = PgsModuleService
