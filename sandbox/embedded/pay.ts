/**
 * POST /embedded/api/sessions/:id/pay — called by the card frame only (same origin as the sandbox), with card data
 * in plain text: in the embedded integration the card never touches the merchant, so no encryption step exists.
 * Starts the card transaction for the session's order and answers with the execution response.
 */
import { z } from "zod"
import { browserInfo, country, type Customer, type ExecutionResponse } from "../schemas"
import type { CardCredential } from "../cards/credentials"
import { startCardTransaction } from "../cards/start"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import type { PaymentSessionRecord } from "../core/types"
import { assertSessionOpen, requireClientSession } from "./client-session"
import { simulatorMetadataOf } from "./simulator-metadata"
import { eligibleBrand, eligibleCardNumber, MAX_INSTALMENTS } from "./instalments"

const OPERATION = "POST /embedded/api/sessions/:id/pay"

/**
 * Assumption: the gateway stops card testing on a session it handed out (the spec shows no limit and gives the merchant
 * no call to close a session or cap it: "Rate limits: not shown"). The sandbox takes this many card attempts on one
 * embedded session, as a real gateway's fraud screening would, and answers 429 to the next.
 */
export const MAX_ATTEMPTS_PER_SESSION = 10

/** Customer fields of submitPayment, in the API's snake_case (the frame converts them). */
const shopper = z
  .object({
    first_name: z.string(),
    last_name: z.string(),
    address: z.string(),
    city: z.string(),
    postal_code: z.string(),
    country,
    phone: z.string(),
    email: z.email(),
  })
  .partial()

const common = {
  holder_name: z.string().max(255).optional(),
  holder_email: z.email().optional(),
  customer: shopper.optional(),
  browser_info: browserInfo,
  number_of_instalments: z.int().min(1).max(MAX_INSTALMENTS).nullable().default(null),
}

export const payBody = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("card"),
    card: z.object({
      number: z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits"),
      cvv: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
      expiration_month: z.int().min(1).max(12),
      expiration_year: z.int().min(2000).max(2099),
    }),
    ...common,
  }),
  z.object({
    type: z.literal("saved_card"),
    payment_method_id: z.string().min(1),
    cvv: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
    ...common,
  }),
])
type PayBody = z.output<typeof payBody>

/** Where the simulator sends the browser after a redirect or form step: a sandbox page that tells the frame. */
export const embeddedReturnUrl = (ctx: SandboxContext, sessionId: string) =>
  `${ctx.urls.base}/embedded/return?session_id=${encodeURIComponent(sessionId)}`

/** Session customer first, then what submitPayment and the holder fields add. */
function customerOf(session: PaymentSessionRecord, body: PayBody): Customer | null {
  const merged: Customer = { ...(session.customer ?? {}), ...(body.customer ?? {}) }
  if (body.holder_email && !merged.email) merged.email = body.holder_email
  if (body.holder_name && !merged.first_name && !merged.last_name) {
    const [first, ...rest] = body.holder_name.trim().split(/\s+/)
    merged.first_name = first
    merged.last_name = rest.join(" ") || null
  }
  return Object.keys(merged).length ? merged : null
}

function checkExpiry(req: SandboxRequest, month: number, year: number): void {
  const now = new Date()
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1))
    throw invalid(req, "card.expiration_year", "card is expired")
}

function instalmentsFor(ctx: SandboxContext, req: SandboxRequest, body: PayBody, hasFeature: boolean): number | null {
  if (body.number_of_instalments === null) return null
  if (!hasFeature) throw invalid(req, "number_of_instalments", "instalments are not enabled on this terminal")
  const eligible =
    body.type === "card"
      ? eligibleCardNumber(body.card.number)
      : eligibleBrand(ctx.store.storedCards.get(body.payment_method_id)?.card.brand)
  if (!eligible) throw invalid(req, "number_of_instalments", "this card is not eligible for instalments")
  return body.number_of_instalments
}

export const transactionIdOf = (r: ExecutionResponse): string | null =>
  r.result?.id ?? r.action?.transaction_id ?? r.redirect?.transaction_id ?? r.form_submit?.transaction_id ?? null

export async function pay(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const { merchant, session } = requireClientSession(ctx, req)
  const body = validateBody(req, payBody)
  assertSessionOpen(ctx, session)
  if (session.transaction_ids.length >= MAX_ATTEMPTS_PER_SESSION)
    return json(429, { error: "TOO_MANY_ATTEMPTS", message: `at most ${MAX_ATTEMPTS_PER_SESSION} payment attempts per session` })
  const feature = session.transaction_type === "PURCHASE" ? "TRX_TYPE_PURCHASE" : "TRX_TYPE_AUTHORIZE"
  const check = checkTerminal(merchant, session.terminal_id, { feature, method: body.type })
  if ("refusal" in check) return json(422, { error: "TERMINAL_REFUSED", processing_code: check.refusal.processing_code, message: check.refusal.message })
  if (body.type === "card") checkExpiry(req, body.card.expiration_month, body.card.expiration_year)
  const credential: CardCredential =
    body.type === "card"
      ? { kind: "card", card: { number: body.card.number, cvv: body.card.cvv, expiration_month: body.card.expiration_month, expiration_year: body.card.expiration_year } }
      : { kind: "saved_card", payment_method_id: body.payment_method_id, cvv: body.cvv }
  const response = startCardTransaction(
    ctx,
    {
      merchant,
      terminal: check.terminal,
      reference: session.reference,
      description: session.description,
      amount: session.amount,
      currency: session.currency,
      transaction_type: session.transaction_type,
      credential,
      integration_type: "EMBEDDED_FIELDS",
      metadata: simulatorMetadataOf(session),
      customer: customerOf(session, body),
      browser_info: body.browser_info,
      customer_ip: req.remoteAddress,
      originator_url: session.originator_url || check.terminal.website,
      // Assumption: redirect and form steps run inside the frame, so the transaction returns to a sandbox page
      // that tells the frame; opened outside a frame that page forwards to the session's return_url.
      return_url: embeddedReturnUrl(ctx, session.id),
      session_id: session.id,
      number_of_instalments: instalmentsFor(ctx, req, body, check.terminal.features.includes("INSTALMENTS")),
    },
    OPERATION,
  )
  const txId = transactionIdOf(response)
  if (txId && !session.transaction_ids.includes(txId)) session.transaction_ids.push(txId)
  return json(200, response)
}
