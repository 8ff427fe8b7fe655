/**
 * The state a card transaction carries while it is being authenticated (kept in `tx.flow`), the index from
 * 3-D Secure server transaction ids to transactions, the card data kept off the record, and `payment_data`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import type { ExecutionResponse } from "../schemas"
import type { SandboxContext } from "../core/context"
import type { TestCardScenario } from "../core/config"
import type { TransactionRecord } from "../core/types"
import type { PlainCard } from "./credentials"

export const SIMULATED_FLOWS = [
  "VERSIONING_FINGERPRINT_Y_CHALLENGE",
  "VERSIONING_FINGERPRINT_A_FRICTIONLESS",
  "VERSIONING_FINGERPRINT_N_FRICTIONLESS",
  "VERSIONING_NOT_ENROLLED",
  "VERSIONING_FINGERPRINT_TIMEOUT_CHALLENGE",
  "VERSIONING_FINGERPRINT_TIMEOUT_FRICTIONLESS",
] as const
export type SimulatedFlow = (typeof SIMULATED_FLOWS)[number]

export type TransStatus = "Y" | "N" | "U" | "A" | "C" | "R"

/** Who decides the authorization once authentication is over. */
export type Decider = "approve" | "insufficient_funds" | "response_code"

/** The full 3-D Secure 2 emulation (metadata simulated_flow). */
export type FullThreeDs = {
  mode: "full"
  simulated_flow: SimulatedFlow
  three_ds_server_trans_id: string
  acs_trans_id: string
  stage: "fingerprint" | "challenge" | "done"
  three_ds_method_url: string | null
  /** The ACS method page received threeDSMethodData / reported completion to the notification URL. */
  method_data_received: boolean
  method_completed: boolean
  fingerprint_result: "Y" | "N" | null
  /** Where the ACS posts the cres: the DIRECT_API override or the gateway default for the integration type. */
  notification_url: string
  challenge_window_size: string
  payment_data: string
  /** The decision the cardholder made at the ACS page for the current challenge, if any. */
  acs_result: TransStatus | null
  /** The cardholder pressed Cancel at the ACS (cres transStatus N with challengeCancel): the outcome is CANCELED. */
  challenge_canceled: boolean
  /** Extra authentication rounds the issuer asks for (metadata simulate_extra_rounds) and those already run. */
  extra_rounds_requested: number
  extra_rounds_done: number
}

/**
 * The simplified simulator's redirect or form-submit step. The outcome is the sandbox's own record: for a redirect,
 * what the cardholder chose on the simulator page (which must have been shown); for a form submit, the trans_status
 * the card's scenario (or metadata) set, whatever the browser posts back.
 */
export type SimplifiedThreeDs =
  | { mode: "simplified"; session_id: string; step: "redirect"; page_shown: boolean }
  | { mode: "simplified"; session_id: string; step: "form_submit"; trans_status: TransStatus }

export type CardFlow = {
  kind: "card"
  scenario: TestCardScenario | null
  decider: Decider
  tokenization: { save: boolean; tokenize_for: "CUSTOMER_INITIATED_TRANSACTION" | "MERCHANT_INITIATED_TRANSACTION" } | null
  /** The stored card a saved_card transaction used. */
  saved_card_id: string | null
  three_ds: FullThreeDs | SimplifiedThreeDs | null
  /** What authorize answers again (same reference) while the transaction awaits the customer. */
  pending: ExecutionResponse | null
}

export const cardFlow = (tx: TransactionRecord): CardFlow | undefined =>
  tx.flow?.kind === "card" ? (tx.flow as unknown as CardFlow) : undefined

export const setCardFlow = (tx: TransactionRecord, flow: CardFlow) => {
  tx.flow = flow as unknown as Record<string, unknown>
}

/** The plain card stays out of the record (the control routes show records); kept only for tokenization. */
const cards = new WeakMap<TransactionRecord, PlainCard>()
export const rememberCard = (tx: TransactionRecord, card: PlainCard | null) => {
  if (card) cards.set(tx, card)
}
export const rememberedCard = (tx: TransactionRecord) => cards.get(tx) ?? null

/** three_ds_server_trans_id → transaction id, per store (a reset empties the store, stale ids then find nothing). */
const byServerTransId = new WeakMap<object, Map<string, string>>()
export function indexThreeDs(ctx: SandboxContext, serverTransId: string, tx: TransactionRecord): void {
  let index = byServerTransId.get(ctx.store)
  if (!index) byServerTransId.set(ctx.store, (index = new Map()))
  index.set(serverTransId, tx.id)
}
export function findByServerTransId(ctx: SandboxContext, serverTransId: string): { tx: TransactionRecord; state: FullThreeDs } | undefined {
  const id = byServerTransId.get(ctx.store)?.get(serverTransId)
  const tx = id ? ctx.store.transactions.get(id) : undefined
  const state = tx ? cardFlow(tx)?.three_ds : undefined
  return tx && state?.mode === "full" ? { tx, state } : undefined
}

/** payment_data: an opaque, HMAC-protected blob naming the transaction and its 3-D Secure server transaction. */
const secrets = new WeakMap<SandboxContext, Buffer>()
const secretOf = (ctx: SandboxContext) => {
  let secret = secrets.get(ctx)
  if (!secret) secrets.set(ctx, (secret = randomBytes(32)))
  return secret
}
const mac = (ctx: SandboxContext, body: string) => createHmac("sha256", secretOf(ctx)).update(body).digest()

export function sealPaymentData(ctx: SandboxContext, txId: string, serverTransId: string): string {
  const body = Buffer.from(JSON.stringify({ t: txId, s: serverTransId, n: randomBytes(6).toString("hex") })).toString("base64url")
  return `${body}.${mac(ctx, body).toString("base64url")}`
}

/** The ids inside a payment_data, or null when it was altered or never issued by this sandbox. */
export function openPaymentData(ctx: SandboxContext, paymentData: string): { txId: string; serverTransId: string } | null {
  const [body, tag, ...rest] = paymentData.split(".")
  if (!body || !tag || rest.length > 0) return null
  const expected = mac(ctx, body)
  const given = Buffer.from(tag, "base64url")
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"))
    return typeof parsed.t === "string" && typeof parsed.s === "string" ? { txId: parsed.t, serverTransId: parsed.s } : null
  } catch {
    return null
  }
}

/**
 * The side tables above as --state-dir keeps them (sandbox/state): cards waiting to be saved, without their CVV (a
 * state file never holds one), the 3-D Secure index and the payment_data key, so a flow started before a restart
 * finishes after it.
 */
export type CardFlowState = {
  plain_cards: Record<string, PlainCard>
  three_ds_index: Record<string, string>
  payment_data_secret: string
}
export function exportCardFlowState(ctx: SandboxContext): CardFlowState {
  const plain: Record<string, PlainCard> = {}
  for (const tx of ctx.store.transactions.values()) {
    const card = cards.get(tx)
    if (card) plain[tx.id] = { ...card, cvv: null }
  }
  return {
    plain_cards: plain,
    three_ds_index: Object.fromEntries(byServerTransId.get(ctx.store) ?? []),
    payment_data_secret: secretOf(ctx).toString("base64"),
  }
}
export function importCardFlowState(ctx: SandboxContext, state: CardFlowState): void {
  for (const [id, card] of Object.entries(state.plain_cards)) {
    const tx = ctx.store.transactions.get(id)
    if (tx) cards.set(tx, card)
  }
  byServerTransId.set(ctx.store, new Map(Object.entries(state.three_ds_index)))
  secrets.set(ctx, Buffer.from(state.payment_data_secret, "base64"))
}
