/**
 * All sandbox state, per merchant and terminal: transactions (with their management children), sessions,
 * customers, stored cards, hosted pages and the ledger. Every status change goes through `finalize` or
 * `setStatus`, which emit the webhook for the new state.
 */
import { FINAL_STATUSES, type TransactionStatus } from "../schemas"
import { newId, nowIso } from "./ids"
import type {
  CustomerRecord,
  HostedPageRecord,
  LedgerEntry,
  PaymentSessionRecord,
  StoredCardRecord,
  TransactionRecord,
} from "./types"

export type StatusChange = { transaction: TransactionRecord; previous: TransactionStatus | null }
export type StatusListener = (change: StatusChange) => void

const PROCESSING_CODES: Record<TransactionStatus, string> = {
  CREATED: "1002",
  PENDING: "1002",
  APPROVED: "0000",
  DECLINED: "1000",
  CANCELED: "1003",
  INVALID: "2000",
  SESSION_EXPIRED: "1005",
}
const RESPONSE_MESSAGES: Record<string, string> = {
  "0000": "Approved",
  "1000": "Declined",
  "1001": "Failed",
  "1002": "Pending",
  "1003": "Canceled",
  "1004": "Insufficient Funds",
  "1005": "Session Expired",
  "2000": "Invalid Request",
  "2013": "Terminal Not Found",
  "2014": "Terminal Inactive",
  "2015": "Terminal Not Accepting",
  "2017": "Merchant Inactive",
}
export const responseMessageFor = (code: string) => RESPONSE_MESSAGES[code] ?? "Declined"

export type NewTransaction = Omit<
  TransactionRecord,
  | "id"
  | "order_id"
  | "created_at"
  | "updated_at"
  | "processing_code"
  | "response_message"
  | "approval_code"
  | "reference_number"
  | "captured_amount"
  | "refunded_amount"
  | "final_capture"
  | "redirect_url"
  | "parent_id"
  | "payment_method_expiry"
  | "number_of_instalments"
  | "authentication_status"
> &
  Partial<
    Pick<
      TransactionRecord,
      "parent_id" | "payment_method_expiry" | "number_of_instalments" | "authentication_status" | "redirect_url"
    >
  >

/** The store's records (its reference indexes are made from them). */
export type StoreRecords = {
  transactions: TransactionRecord[]
  sessions: PaymentSessionRecord[]
  customers: CustomerRecord[]
  storedCards: StoredCardRecord[]
  hostedPages: HostedPageRecord[]
  ledger: LedgerEntry[]
}

export class SandboxStore {
  readonly transactions = new Map<string, TransactionRecord>()
  readonly sessions = new Map<string, PaymentSessionRecord>()
  readonly customers = new Map<string, CustomerRecord>()
  readonly storedCards = new Map<string, StoredCardRecord>()
  readonly hostedPages = new Map<string, HostedPageRecord>()
  readonly ledger: LedgerEntry[] = []
  private readonly byReference = new Map<string, string>()
  private readonly sessionsByReference = new Map<string, string>()
  private readonly listeners: StatusListener[] = []

  onStatusChange(listener: StatusListener): void {
    this.listeners.push(listener)
  }

  reset(): void {
    this.transactions.clear()
    this.sessions.clear()
    this.customers.clear()
    this.storedCards.clear()
    this.hostedPages.clear()
    this.ledger.length = 0
    this.byReference.clear()
    this.sessionsByReference.clear()
  }

  /**
   * Fill an empty store from saved records (--state-dir, sandbox/state), in the order they were made, so the
   * reference indexes come out as they were.
   */
  restore(saved: StoreRecords): void {
    this.reset()
    for (const tx of saved.transactions) this.transactions.set(tx.id, tx)
    for (const tx of saved.transactions) if (tx.parent_id === null) this.indexReference(tx)
    for (const session of saved.sessions) this.addSession(session)
    for (const c of saved.customers) this.customers.set(c.id, c)
    for (const c of saved.storedCards) this.storedCards.set(c.id, c)
    for (const p of saved.hostedPages) this.hostedPages.set(p.id, p)
    this.ledger.push(...saved.ledger)
  }

  records(): StoreRecords {
    return {
      transactions: [...this.transactions.values()],
      sessions: [...this.sessions.values()],
      customers: [...this.customers.values()],
      storedCards: [...this.storedCards.values()],
      hostedPages: [...this.hostedPages.values()],
      ledger: this.ledger,
    }
  }

  private refKey = (merchantId: string, terminalId: string, reference: string) => `${merchantId}|${terminalId}|${reference}`

  /** The initial transaction a (terminal, reference) pair already names, if any: references are unique per terminal. */
  findByReference(merchantId: string, terminalId: string, reference: string): TransactionRecord | undefined {
    const id = this.byReference.get(this.refKey(merchantId, terminalId, reference))
    return id ? this.transactions.get(id) : undefined
  }

  findSessionByReference(merchantId: string, terminalId: string, reference: string): PaymentSessionRecord | undefined {
    const id = this.sessionsByReference.get(this.refKey(merchantId, terminalId, reference))
    return id ? this.sessions.get(id) : undefined
  }

  getTransaction(merchantId: string, id: string): TransactionRecord | undefined {
    const tx = this.transactions.get(id)
    return tx && tx.merchant_id === merchantId ? tx : undefined
  }

  children(parentId: string): TransactionRecord[] {
    return [...this.transactions.values()].filter((t) => t.parent_id === parentId)
  }

  /** Create a transaction in `status` (CREATED or PENDING usually), record it in the ledger and index its reference. */
  createTransaction(input: NewTransaction, operation: string): TransactionRecord {
    const at = nowIso()
    const tx: TransactionRecord = {
      parent_id: null,
      payment_method_expiry: null,
      number_of_instalments: null,
      authentication_status: null,
      redirect_url: null,
      ...input,
      id: newId("trx"),
      order_id: newId("ord"),
      created_at: at,
      updated_at: at,
      processing_code: PROCESSING_CODES[input.status],
      response_message: responseMessageFor(PROCESSING_CODES[input.status]),
      approval_code: null,
      reference_number: null,
      captured_amount: 0,
      refunded_amount: 0,
      final_capture: false,
    }
    this.transactions.set(tx.id, tx)
    if (tx.parent_id === null) this.indexReference(tx)
    this.recordLedger(tx, operation, false)
    if (tx.status !== "CREATED") this.emit({ transaction: tx, previous: null })
    return tx
  }

  /**
   * A reference names one transaction on its terminal. Only attempts of the same embedded-fields session share
   * one (each retry after a decline is a new attempt); then the reference names the latest attempt.
   */
  private indexReference(tx: TransactionRecord): void {
    const key = this.refKey(tx.merchant_id, tx.terminal_id, tx.reference)
    const taken = this.transactions.get(this.byReference.get(key) ?? "")
    if (taken && taken.id !== tx.id && !(tx.session_id && taken.session_id === tx.session_id)) return
    this.byReference.set(key, tx.id)
  }

  /** Another attempt of the same embedded-fields session that is already approved, if any. */
  private approvedSibling(tx: TransactionRecord): TransactionRecord | undefined {
    const ids = tx.session_id ? this.sessions.get(tx.session_id)?.transaction_ids ?? [] : []
    return ids.map((id) => this.transactions.get(id)).find((t) => t && t.id !== tx.id && t.status === "APPROVED")
  }

  recordLedger(tx: TransactionRecord, operation: string, replay: boolean): void {
    this.ledger.push({
      seq: this.ledger.length + 1,
      at: nowIso(),
      merchant_id: tx.merchant_id,
      terminal_id: tx.terminal_id,
      operation,
      transaction_type: tx.transaction_type,
      transaction_id: tx.id,
      parent_id: tx.parent_id,
      reference: tx.reference,
      amount: tx.amount,
      currency: tx.currency,
      replay,
    })
  }

  /**
   * Move a transaction to a new status. A final status never changes again (returns false);
   * approval codes are issued on approval; the webhook listeners hear every change.
   */
  setStatus(
    tx: TransactionRecord,
    status: TransactionStatus,
    details: { processing_code?: string; response_message?: string } = {},
  ): boolean {
    if (FINAL_STATUSES.has(tx.status)) return false
    if (tx.status === status && !details.processing_code) return false
    // A session is paid once: an attempt that finishes after another attempt was approved is declined.
    if (status === "APPROVED" && this.approvedSibling(tx)) {
      status = "DECLINED"
      details = { processing_code: "1000", response_message: "TRX_STATUS_DECLINED: the session is already paid by another attempt" }
    }
    const previous = tx.status
    tx.status = status
    tx.processing_code = details.processing_code ?? PROCESSING_CODES[status]
    tx.response_message = details.response_message ?? responseMessageFor(tx.processing_code)
    tx.updated_at = nowIso()
    if (status === "APPROVED") {
      tx.approval_code = String(Math.floor(100000 + Math.random() * 900000))
      tx.reference_number = String(Date.now()).slice(-12)
    }
    this.emit({ transaction: tx, previous })
    return true
  }

  /** Re-announce the current state of a transaction (used by the "replay webhook" control). */
  announce(tx: TransactionRecord): void {
    this.emit({ transaction: tx, previous: tx.status })
  }

  addSession(session: PaymentSessionRecord): void {
    this.sessions.set(session.id, session)
    this.sessionsByReference.set(this.refKey(session.merchant_id, session.terminal_id, session.reference), session.id)
  }

  private emit(change: StatusChange): void {
    for (const listener of this.listeners) listener(change)
  }
}
