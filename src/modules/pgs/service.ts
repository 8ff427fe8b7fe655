/**
 * The pgs module's service: CRUD over the three models (MedusaService) plus the few operations that need more
 * than CRUD — recording a webhook delivery exactly once.
 */
import { generateEntityId, MedusaService } from "@medusajs/framework/utils"
import { PgsSavedCard, PgsTerminalSetting, PgsWebhookEvent, WEBHOOK_EVENT_TABLE } from "./models"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { PgsClient } from "../../gateway"
import { buildGatewayClient } from "./gateway"

export type NewWebhookEvent = {
  delivery_key: string
  event: string
  subject_id: string | null
  reference: string | null
  payload: Record<string, unknown>
}

export type RecordedWebhookEvent = { id: string; is_new: boolean }

type InjectedDependencies = { __pg_connection__: Knex }

export default class PgsModuleService extends MedusaService({ PgsTerminalSetting, PgsWebhookEvent, PgsSavedCard }) {
  protected readonly knex_: Knex
  protected readonly rawOptions_: unknown
  private client_: PgsClient | null = null

  constructor(deps: InjectedDependencies, options?: unknown) {
    // eslint-disable-next-line prefer-rest-params
    super(...arguments)
    this.knex_ = deps.__pg_connection__
    this.rawOptions_ = options
  }

  /** Medusa calls these on shutdown: close the client's keep-alive connections so the process can exit. */
  __hooks = {
    onApplicationShutdown: async () => {
      await this.client_?.close()
      this.client_ = null
    },
  }

  /** The gateway client (and its webhook verifier). Throws a configuration error naming each missing option. */
  gateway(): PgsClient {
    if (!this.client_) this.client_ = buildGatewayClient(this.rawOptions_).client
    return this.client_
  }

  /**
   * Insert the delivery unless its delivery_key is already there. INSERT … ON CONFLICT DO NOTHING on the unique
   * index means two concurrent deliveries of the same bytes cannot both come back `is_new`.
   */
  async recordWebhookEvent(input: NewWebhookEvent): Promise<RecordedWebhookEvent> {
    const now = new Date()
    const inserted: Array<{ id: string }> = await this.knex_(WEBHOOK_EVENT_TABLE)
      .insert({
        id: generateEntityId(undefined, "pgswh"),
        ...input,
        payload: JSON.stringify(input.payload),
        received_at: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict("delivery_key")
      .ignore()
      .returning("id")
    if (inserted[0]) return { id: inserted[0].id, is_new: true }
    const existing = await this.knex_(WEBHOOK_EVENT_TABLE).select("id").where({ delivery_key: input.delivery_key }).first()
    if (!existing) throw new Error("recordWebhookEvent: the delivery was neither inserted nor found")
    return { id: String(existing.id), is_new: false }
  }
}


export type PgsModuleServiceType = PgsModuleService
