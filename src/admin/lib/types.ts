/** What the /admin/pgs/* routes answer (the server's views, as the browser receives them). */
import type { MedusaPaymentState } from "./words"

export type Catalog = {
  css_variables: string[]
  locales: string[]
  methods: string[]
  /** Each method's English name as shoppers see it. */
  method_labels: Record<string, string>
  transaction_types: string[]
  integration_types: string[]
}

export type Connection = { configured: true; settings: Record<string, string | null> } | { configured: false; problem: string }

export type ConnectionTest = { ok: boolean; realm: string | null; latency_ms: number; error?: string }

export type HostedPageOptions = { skip_three_ds?: boolean; cvv_less?: boolean; number_of_instalments?: number }

export type Terminal = {
  id: string
  terminal_id: string
  label: string | null
  currency_codes: string[]
  region_ids: string[]
  transaction_type: string
  integration_type: string
  notification_url: string | null
  instalments: boolean
  locale: string | null
  css_variables: Record<string, string> | null
  enabled_methods: string[] | null
  hosted_page_options: HostedPageOptions | null
  /** Per method identifier, its shopper-facing name per locale. */
  method_names: Record<string, Record<string, string>> | null
  is_default: boolean
  capture_on_fulfillment: boolean
}

export type TimelineEvent = {
  id: string
  event: string
  source: "webhook" | "reconciliation"
  transaction_type: string | null
  transaction_id: string | null
  status: string | null
  processing_code: string | null
  amount: number | null
  money: { amount: string; currency_code: string } | null
  received_at: string
  processed_at: string | null
  outcome: string | null
  error: string | null
  attempts: number | null
  /** Who made the capture or refund this event is about, as Medusa recorded it (null: not an operation of Medusa's). */
  by: Actor | null
}

export type Actor = { kind: "user" | "api_key" | "gateway_dashboard" | "capture_on_fulfillment" | "not_recorded"; label: string; id?: string; fulfillment_id?: string }

/**
 * One of Medusa's captures or refunds of the payment (amount in major units). `nothing_sent`: a taxed fraction of a
 * cent the operations before it already carried: the gateway was not asked. `unconfirmed`: Medusa wrote it but the
 * gateway's answer was never recorded (a process stopped in the middle, or it is still being made), and
 * `unconfirmed_item` where Needs attention stands on it (listed "open", dealt with "closed", not listed yet null, older than reconciliation looks back "unwatched"). `reason` and
 * `note`: what the admin gave a refund.
 */
export type PaymentOperation = { id: string; kind: "capture" | "refund"; amount: string; created_at: string | null; transaction_id: string | null; final_capture: boolean; nothing_sent: boolean; unconfirmed: boolean; unconfirmed_item: "open" | "closed" | "unwatched" | null; reason: string | null; note: string | null; by: Actor }

export type GatewayTransaction = {
  id: string
  status: string
  approved: boolean
  pending: boolean
  transaction_type: string
  terminal_id: string
  amount: number
  currency: string
  processing_code: string | null
  response_message: string | null
  outcome: { name: string; message: string }
  three_ds: string | null
  brand: string | null
  masked: string | null
  approval_code: string | null
  retry: { count: number | null; status: string | null; provider: string | null } | null
}

export type OrderPayment = {
  payment_session_id: string
  payment_id: string | null
  provider_id: string
  session_status: string
  transaction_id: string | null
  /** The shopper paid `transaction_id` after Medusa stopped wanting this session; the plugin voided or refunded it. */
  late_money_given_back?: "void" | "refund" | null
  recorded: Record<string, unknown>
  gateway: GatewayTransaction | null
  gateway_error: string | null
  in_sync: boolean | null
  /** Medusa's state of the payment now, amounts in major units. */
  medusa: { state: MedusaPaymentState; amount: string; captured_amount: string; refunded_amount: string; rest_to_capture: string; rest_to_refund: string; left_to_capture: string; left_to_refund: string; currency_code: string }
  operations: PaymentOperation[]
  /** Sums of the captures and refunds the gateway confirmed (major units); null for a currency without a known exponent. */
  confirmed_by_gateway: { captured: string; refunded: string; unconfirmed: number } | null
  events: TimelineEvent[]
}

export type OrderGateway = { order_id: string; payments: OrderPayment[]; needs_attention: number; read_at: string; synced?: boolean }

export type AttentionAction = "reread" | "process_again" | "remove_unconfirmed" | "resolve"

export type AttentionItem = {
  id: string
  source: "follow_up" | "event"
  kind: string
  title: string
  needs_person: boolean
  sentence: string
  order_id: string | null
  order_display_id: number | null
  transaction_id: string | null
  amount: string | null
  currency_code: string | null
  at: string
  actions: AttentionAction[]
}

export type AttentionList = { items: AttentionItem[]; next_cursor: string | null; needs_person: number }

export type SavedCard = { id: string; brand: string | null; masked: string | null; last_4: string | null; exp_month: number | null; exp_year: number | null }

export type Payout = {
  id: string
  reference: string
  status: string
  method: "bank_account" | "card"
  transaction_type: string
  terminal_id: string
  /** Exact, in the currency's decimals ("1250.50"). */
  amount: string
  currency_code: string
  description: string
  masked: string | null
  beneficiary_name: string | null
  card_brand: string | null
  transaction_id: string | null
  processing_code: string | null
  response_message: string | null
  errors: unknown[] | null
  note: string | null
  created_at: string
  updated_at: string
}

/** GET /admin/pgs/health (api/admin/pgs/health/route.ts). */
export type GatewayHealth = {
  credentials: { state: "ok" | "refused" | "wrong_url" | "unreachable" | "not_configured"; message: string | null; checked_at: string }
  webhooks_refused: { count: number; since: string; last_at: string } | null
  card_testing: { refused: number; since: string; last_at: string; lockdown: CardTestingLockdown | null } | null
}
/** GET/POST /admin/pgs/settings/card-testing: the switch for a store under attack, while it is on. */
export type CardTestingLockdown = { mode: "logged_in_only"; until: string; set_by: string | null; set_at: string }
/** The guard's limits (option cardTesting) and the switch while it is on. */
export type CardTestingView = {
  thresholds: { enabled: boolean; declinesPerAddress: number; declinesPerCart: number; declineWindowMinutes: number; blockMinutes: number }
  lockdown: CardTestingLockdown | null
}
/** GET /admin/pgs/orders/:id/pay-link */
export type OwedCollection = { payment_collection_id: string; amount: string; currency_code: string }
export type ChargeableCard = { id: string; brand: string | null; last_4: string | null; exp_month: number | null; exp_year: number | null }
export type OwedView = { owed: OwedCollection[]; valid_days: number; chargeable_cards: ChargeableCard[] }
/** POST /admin/pgs/orders/:id/charge-saved-card */
export type ChargeResult = { outcome: "paid" | "already_paid" | "customer_needed" | "declined" | "pending"; message: string; payment_id?: string }
/** POST /admin/pgs/orders/:id/pay-link */
export type IssuedPayLink = { url: string; expires_at: string; amount: string; currency_code: string }
