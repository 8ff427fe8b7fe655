/**
 * The one entry point that starts a card transaction, whichever integration brought the card:
 * Direct API authorize (cards/authorize.ts), the embedded fields (embedded/) and the hosted payment page (apm/).
 * It runs the authentication simulator and returns the execution response.
 */
import type { BrowserInfo, Customer, ExecutionResponse } from "../schemas"
import { TEST_CARDS, type TestCardScenario } from "../core/config"
import type { SandboxContext } from "../core/context"
import type { IntegrationType, Merchant, PaymentMethodView, StoredCardRecord, Terminal, TransactionRecord } from "../core/types"
import { resultResponse } from "../core/views"
import { cardView, expiryDate } from "./card-view"
import type { CardCredential, PlainCard } from "./credentials"
import { rejectField } from "./errors"
import { rememberCard, setCardFlow, type CardFlow, type Decider } from "./flow"
import { readSimulatorMetadata, type SimulatorMetadata } from "./metadata"
import { authenticatedAs, authorizeCard, SKIPPED } from "./outcome"
import { simplifiedFormSubmit, simplifiedRedirect } from "./simplified"
import { beginFullThreeDs } from "./three-ds-flow"
import { defaultNotificationUrl } from "./urls"

export type CardTransactionInput = {
  merchant: Merchant
  terminal: Terminal
  reference: string
  description: string
  amount: number
  currency: string
  transaction_type: "PURCHASE" | "AUTHORIZE" | "OCT" | "PAYOUT"
  credential: CardCredential
  integration_type: IntegrationType
  metadata: Record<string, unknown>
  customer: Customer | null
  browser_info?: BrowserInfo
  customer_ip: string
  originator_url: string
  return_url?: string
  error_url?: string
  cancel_url?: string
  /** options.three_ds.notification_url, already validated; honoured only for DIRECT_API. */
  notification_url_override?: string
  tokenization?: { save_card_for_future_payments: boolean; tokenize_for?: "CUSTOMER_INITIATED_TRANSACTION" | "MERCHANT_INITIATED_TRANSACTION" }
  session_id?: string
  number_of_instalments?: number | null
  /** Hosted payment page option. */
  skip_three_ds?: boolean
}

export type StartCardTransaction = (ctx: SandboxContext, input: CardTransactionInput, operation: string) => ExecutionResponse

/** What the credential amounts to: the card the simulator looks at, how it shows, and whether 3-D Secure applies. */
type Resolved = { card: PlainCard | null; view: PaymentMethodView; threeDs: boolean; savedCard: StoredCardRecord | null }

function resolveCredential(ctx: SandboxContext, input: CardTransactionInput): Resolved {
  const credential = input.credential
  switch (credential.kind) {
    case "card":
      return { card: credential.card, view: cardView("card", credential.card?.number ?? null), threeDs: true, savedCard: null }
    case "saved_card": {
      const stored = ctx.store.storedCards.get(credential.payment_method_id)
      const property = "payment_method.data.payment_method_id"
      if (!stored || stored.merchant_id !== input.merchant.merchant_id) throw rejectField(property, "payment method not found")
      // Assumption: the spec names the code but not the HTTP shape; a 422 on the id carries it as the message.
      if (stored.status !== "ACTIVE") throw rejectField(property, "INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", ["INVALID_REQUEST_PAYMENT_METHOD_INACTIVE"])
      // Assumption: a card saved for a customer is refused when another customer.id is sent with it.
      const customerId = input.customer?.id
      if (stored.customer_id && customerId && customerId !== stored.customer_id)
        throw rejectField(property, "belongs to another customer")
      const card: PlainCard = {
        number: stored.card.number,
        cvv: credential.cvv,
        expiration_month: stored.card.exp_month,
        expiration_year: stored.card.exp_year,
      }
      return { card, view: cardView("saved_card", card.number, stored.id), threeDs: true, savedCard: stored }
    }
    case "network-token":
      // 3-D Secure is skipped only when a valid (decryptable) cryptogram and an ECI come together.
      return {
        card: credential.card,
        view: cardView("network-token", credential.card?.number ?? null),
        threeDs: !(credential.cryptogram && credential.eci),
        savedCard: null,
      }
    case "wallet-one":
      return {
        card: credential.card,
        view: cardView("wallet-one", credential.card?.number ?? null),
        threeDs: credential.auth_method === "PAN_ONLY",
        savedCard: null,
      }
  }
}

const scenarioOf = (card: PlainCard | null): TestCardScenario | null =>
  (card && TEST_CARDS.find((c) => c.number === card.number)?.scenario) ?? null

/** A card saved for a customer needs that customer to exist (spec: "the customer must exist"). */
function checkTokenizationCustomer(ctx: SandboxContext, input: CardTransactionInput): void {
  const customerId = input.customer?.id
  if (!input.tokenization?.save_card_for_future_payments || !customerId) return
  const customer = ctx.store.customers.get(customerId)
  if (!customer || customer.merchant_id !== input.merchant.merchant_id) throw rejectField("customer.id", "customer not found", [customerId])
}

function deciderFor(meta: SimulatorMetadata, scenario: TestCardScenario | null): Decider {
  // The full simulator always lets response_code decide; the simplified table decides by test card.
  if (meta.simulated_flow || !scenario) return "response_code"
  return scenario === "frictionless_insufficient_funds" ? "insufficient_funds" : "approve"
}

/** Starts a card transaction: checks, records it (CREATED), then authenticates and authorizes as the simulator says. */
export const startCardTransaction: StartCardTransaction = (ctx, input, operation) => {
  const meta = readSimulatorMetadata(input.metadata)
  const resolved = resolveCredential(ctx, input)
  checkTokenizationCustomer(ctx, input)
  const card = resolved.card
  const scenario = scenarioOf(card)
  const tx = ctx.store.createTransaction(
    {
      merchant_id: input.merchant.merchant_id,
      terminal_id: input.terminal.terminal_id,
      reference: input.reference,
      description: input.description,
      currency: input.currency,
      amount: input.amount,
      transaction_type: input.transaction_type,
      status: "CREATED",
      integration_type: input.integration_type,
      payment_method: resolved.view,
      customer: input.customer,
      metadata: input.metadata,
      browser_info: input.browser_info,
      customer_ip: input.customer_ip,
      originator_url: input.originator_url,
      return_url: input.return_url,
      error_url: input.error_url,
      cancel_url: input.cancel_url,
      session_id: input.session_id,
      number_of_instalments: input.number_of_instalments ?? null,
      payment_method_expiry: card ? expiryDate(card.expiration_month, card.expiration_year) : null,
    },
    operation,
  )
  const flow: CardFlow = {
    kind: "card",
    scenario,
    decider: deciderFor(meta, scenario),
    tokenization: input.tokenization?.save_card_for_future_payments
      ? { save: true, tokenize_for: input.tokenization.tokenize_for ?? "CUSTOMER_INITIATED_TRANSACTION" }
      : null,
    saved_card_id: resolved.savedCard?.id ?? null,
    three_ds: null,
    pending: null,
  }
  setCardFlow(tx, flow)
  // A saved card is not saved again: the stored card's own token is the one the result carries.
  if (!resolved.savedCard) rememberCard(tx, card)

  const threeDsApplies = resolved.threeDs && !input.skip_three_ds && input.transaction_type !== "OCT" && input.transaction_type !== "PAYOUT"
  if (!threeDsApplies) return authorizeNow(ctx, tx)
  if (meta.simulated_flow) {
    // The override is honoured only for DIRECT_API; the other integrations always use the gateway page.
    const override = input.integration_type === "DIRECT_API" ? input.notification_url_override : undefined
    return beginFullThreeDs(ctx, tx, flow, meta.simulated_flow, {
      notification_url: override ?? defaultNotificationUrl(ctx, tx.id, input.integration_type),
      extra_rounds: meta.extra_rounds,
    })
  }
  switch (scenario) {
    case "frictionless_approved":
    case "frictionless_insufficient_funds":
      // Frictionless: the issuer authenticates (Y) without the customer; the card decides the authorization.
      authorizeCard(ctx, tx, authenticatedAs("Y"))
      return resultResponse(tx)
    case "redirect_interactive":
      return simplifiedRedirect(ctx, tx, flow)
    case "form_submit_authenticated":
      return simplifiedFormSubmit(ctx, tx, flow, "Y")
    case "form_submit_declined":
      return simplifiedFormSubmit(ctx, tx, flow, "N")
    case null:
      // Unmapped or undecryptable card: the metadata fallback of the spec.
      if (meta.simulate_redirect) return simplifiedRedirect(ctx, tx, flow)
      if (meta.simulate_form_submit) return simplifiedFormSubmit(ctx, tx, flow, meta.simulate_form_submit)
      return authorizeNow(ctx, tx)
  }
}

function authorizeNow(ctx: SandboxContext, tx: TransactionRecord): ExecutionResponse {
  authorizeCard(ctx, tx, SKIPPED)
  return resultResponse(tx)
}
