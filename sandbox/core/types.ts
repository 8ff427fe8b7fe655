/** The sandbox's own records. They hold more than the API shows (views.ts decides what goes out). */
import type { BrowserInfo, Customer, TransactionStatus } from "../schemas"

export type Terminal = {
  terminal_id: string
  label: string
  /** TRX_TYPE_AUTHORIZE, TRX_TYPE_PURCHASE, TRX_TYPE_OCT, TRX_TYPE_PAYOUT, TRX_TYPE_PAYMENT, INSTALMENTS */
  features: string[]
  /** payment_method types (authorize) and `method` values (payment endpoint) the terminal accepts */
  methods: string[]
  website: string
  active: boolean
  accepting: boolean
}

export type Merchant = {
  merchant_id: string
  client_id: string
  client_secret: string
  client_key: string
  active: boolean
  terminals: Terminal[]
}

export type IntegrationType = "DIRECT_API" | "EMBEDDED_FIELDS" | "HOSTED_PAYMENT_PAGE"
export type TransactionType = "PURCHASE" | "AUTHORIZE" | "OCT" | "PAYOUT" | "PAYMENT" | "CAPTURE" | "REFUND" | "VOID"

export type PaymentMethodView = {
  type: string
  brand: string | null
  masked: string | null
  method: string | null
  hash: string | null
  token: string | null
}

export type TransactionRecord = {
  id: string
  merchant_id: string
  order_id: string
  terminal_id: string
  reference: string
  description: string
  currency: string
  amount: number
  transaction_type: TransactionType
  status: TransactionStatus
  processing_code: string | null
  response_message: string | null
  parent_id: string | null
  integration_type: IntegrationType
  payment_method: PaymentMethodView
  customer: Customer | null
  metadata: Record<string, unknown>
  browser_info?: BrowserInfo
  customer_ip: string
  originator_url: string
  return_url?: string
  error_url?: string
  cancel_url?: string
  created_at: string
  updated_at: string
  approval_code: string | null
  reference_number: string | null
  /** e.g. AUTHENTICATED, NOT_AUTHENTICATED, ATTEMPTED, SKIPPED, FAILED */
  authentication_status: string | null
  payment_method_expiry: string | null
  number_of_instalments: number | null
  redirect_url: string | null
  /** Money moved by management children (parents only). */
  captured_amount: number
  refunded_amount: number
  final_capture: boolean
  /** The embedded-fields or hosted-page session this transaction came from. */
  session_id?: string
  /** Free slot for the flow that owns the transaction (3-D Secure state, redirect page kind, ...). */
  flow?: Record<string, unknown>
}

export type PaymentSessionRecord = {
  id: string
  merchant_id: string
  terminal_id: string
  reference: string
  description: string
  currency: string
  amount: number
  transaction_type: "AUTHORIZE" | "PURCHASE"
  return_url: string
  customer: Record<string, unknown> | null
  country: string | null
  originator_url: string | null
  status: "CREATED"
  created_at: string
  /** Transactions started from this session by the embedded fields. */
  transaction_ids: string[]
}

export type CustomerRecord = {
  id: string
  merchant_id: string
  email: string
  first_name: string | null
  last_name: string | null
  phone: string | null
  description: string | null
  type: string | null
  address: string | null
  city: string | null
  country: string | null
  postal_code: string | null
  region: string | null
  created_at: string
}

export type StoredCardRecord = {
  id: string
  merchant_id: string
  customer_id: string | null
  status: "ACTIVE" | "DELETED"
  type: "card"
  tokenize_for: "CUSTOMER_INITIATED_TRANSACTION" | "MERCHANT_INITIATED_TRANSACTION"
  card: { number: string; brand: string; bin: string; last_4: string; masked: string; exp_month: number; exp_year: number }
  transaction_id: string
  created_at: string
  deleted_at: string | null
}

export type HostedPageRecord = {
  id: string
  merchant_id: string
  terminal_id: string
  reference: string
  description: string
  currency: string
  amount: number
  transaction_type: "AUTHORIZE" | "PURCHASE"
  success_url: string
  cancel_url: string
  error_url: string
  language: string
  options: { number_of_instalments?: number; skip_three_ds?: boolean; cvv_less?: boolean }
  customer: Customer | null
  metadata: Record<string, unknown>
  transaction_id: string | null
  created_at: string
}

export type LedgerEntry = {
  seq: number
  at: string
  merchant_id: string
  terminal_id: string
  /** The HTTP operation that reached the sandbox, e.g. "POST /api/transactions/authorize". */
  operation: string
  transaction_type: TransactionType
  transaction_id: string
  parent_id: string | null
  reference: string
  amount: number
  currency: string
  /** true when the call returned an existing transaction (idempotent by reference) instead of creating one. */
  replay: boolean
}
