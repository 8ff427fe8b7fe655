/**
 * POST /api/hosted-payment-page: creates a hosted payment page session. The spec shows only the request;
 * Assumption: the answer is the page session `{id, url, status: "CREATED", ...the request fields}` with
 * url = {base}/hpp/{id}, where the shopper is sent to pay by card.
 */
import { hostedPaymentPageRequest } from "../schemas"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { newId, nowIso } from "../core/ids"
import type { HostedPageRecord, Merchant } from "../core/types"
import { assertSameOrder } from "../core/idempotency"

export const HPP_OPERATION = "POST /api/hosted-payment-page"

/** Pages the shopper canceled before any card was submitted (records vanish with a store reset). */
const canceledPages = new WeakSet<HostedPageRecord>()
export const markCanceled = (page: HostedPageRecord) => canceledPages.add(page)
/** The canceled pages' ids, as --state-dir keeps them (sandbox/state). */
export const canceledPageIds = (ctx: SandboxContext) => [...ctx.store.hostedPages.values()].filter((p) => canceledPages.has(p)).map((p) => p.id)
export const restoreCanceledPages = (ctx: SandboxContext, ids: string[]) =>
  ids.forEach((id) => ctx.store.hostedPages.has(id) && canceledPages.add(ctx.store.hostedPages.get(id)!))

/** Assumption: CREATED until the shopper acts, then COMPLETED (a card was submitted) or CANCELED. */
export function hostedPageStatus(page: HostedPageRecord): "CREATED" | "COMPLETED" | "CANCELED" {
  if (canceledPages.has(page)) return "CANCELED"
  return page.transaction_id ? "COMPLETED" : "CREATED"
}

export const hostedPageUrl = (ctx: SandboxContext, page: HostedPageRecord) => `${ctx.urls.base}/hpp/${page.id}`

export function hostedPageView(ctx: SandboxContext, page: HostedPageRecord) {
  const { merchant_id: _merchant, ...fields } = page
  return { ...fields, url: hostedPageUrl(ctx, page), status: hostedPageStatus(page) }
}

function findPage(ctx: SandboxContext, merchant: Merchant, terminalId: string, reference: string): HostedPageRecord | undefined {
  for (const page of ctx.store.hostedPages.values())
    if (page.merchant_id === merchant.merchant_id && page.terminal_id === terminalId && page.reference === reference) return page
  return undefined
}

export async function createHostedPage(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, hostedPaymentPageRequest)
  // Assumption: PURCHASE when transaction_type is left out.
  const transactionType = body.transaction_type ?? "PURCHASE"

  // Idempotent like transactions: the same reference with the same amount and currency returns the same page.
  const existing = findPage(ctx, merchant, body.terminal_id, body.reference)
  if (existing) {
    assertSameOrder(req, existing, body)
    return json(200, hostedPageView(ctx, existing))
  }
  if (ctx.store.findByReference(merchant.merchant_id, body.terminal_id, body.reference))
    throw invalid(req, "reference", "was already used on this terminal by a transaction", [body.reference])

  // Assumption: with no transaction to mark INVALID yet, a refusing terminal is a validation error on terminal_id.
  const check = checkTerminal(merchant, body.terminal_id, { feature: `TRX_TYPE_${transactionType}`, method: "card" })
  if ("refusal" in check) throw invalid(req, "terminal_id", check.refusal.message, [check.refusal.processing_code])

  const page: HostedPageRecord = {
    id: newId("hpp"),
    merchant_id: merchant.merchant_id,
    terminal_id: body.terminal_id,
    reference: body.reference,
    description: body.description,
    currency: body.currency,
    amount: body.amount,
    transaction_type: transactionType,
    success_url: body.success_url,
    cancel_url: body.cancel_url,
    error_url: body.error_url,
    // Spec: the default language is configured per merchant, falling back to English; the sandbox merchant uses en-US.
    language: body.language ?? "en-US",
    options: body.options ?? {},
    customer: body.customer ?? null,
    metadata: body.metadata ?? {},
    transaction_id: null,
    created_at: nowIso(),
  }
  ctx.store.hostedPages.set(page.id, page)
  return json(200, hostedPageView(ctx, page))
}
