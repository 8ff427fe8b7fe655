/** What the API shows of a record: the Transaction object and the four-field execution response. */
import type { ExecutionResponse, Transaction } from "../schemas"
import type { TransactionRecord } from "./types"

/** The Transaction table types `customer` as a Customer (not "or null"): unknown fields are null, the object stays. */
function customerOf(tx: TransactionRecord): Transaction["customer"] {
  const c = tx.customer ?? {}
  return {
    id: c.id ?? null,
    first_name: c.first_name ?? null,
    last_name: c.last_name ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    address: c.address ?? null,
    city: c.city ?? null,
    country: c.country ?? null,
    postal_code: c.postal_code ?? null,
  }
}

export function transactionView(tx: TransactionRecord): Transaction {
  return {
    id: tx.id,
    merchant_id: tx.merchant_id,
    order_id: tx.order_id,
    terminal_id: tx.terminal_id,
    reference: tx.reference,
    description: tx.description,
    currency: tx.currency,
    amount: tx.amount,
    normalized_amount: tx.amount,
    customer: customerOf(tx),
    processing_result: {
      payment_provider_id: "simplified-card-simulator",
      payment_provider_account_id: "sandbox-account",
      approval_code: tx.approval_code,
      reference_number: tx.reference_number,
    },
    approved: tx.status === "APPROVED",
    pending: tx.status === "PENDING",
    channel: "ecommerce",
    transaction_type: tx.transaction_type,
    status: tx.status,
    payment_method: tx.payment_method,
    redirect_url: tx.redirect_url,
    errors: [],
    processing_code: tx.processing_code,
    response_message: tx.response_message,
    data: {
      retry_options: {
        data: null,
        payment_provider_account_id: "sandbox-account",
        payment_provider_id: "simplified-card-simulator",
        retry_count: 0,
        status: null,
      },
    },
  }
}

const NONE = { result: null, action: null, redirect: null, form_submit: null }

export const resultResponse = (tx: TransactionRecord): ExecutionResponse => ({ ...NONE, result: transactionView(tx) })
export const actionResponse = (action: NonNullable<ExecutionResponse["action"]>): ExecutionResponse => ({ ...NONE, action })
export const redirectResponse = (redirect: NonNullable<ExecutionResponse["redirect"]>): ExecutionResponse => ({
  ...NONE,
  redirect,
})
export const formSubmitResponse = (formSubmit: NonNullable<ExecutionResponse["form_submit"]>): ExecutionResponse => ({
  ...NONE,
  form_submit: formSubmit,
})
