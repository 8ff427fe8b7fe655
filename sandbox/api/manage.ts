/**
 * POST /api/transactions/manage: CAPTURE, REFUND and VOID against the original transaction of a reference.
 * Each call is a new operation (not idempotent): it creates a child transaction, records a ledger row and sends
 * its management webhook. Request-level mistakes (unknown reference, other currency, too much money) are 422s;
 * an operation that does not apply to the original's type or state is created and DECLINED (code 1000).
 */
import { manageRequest } from "../schemas"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { nowIso } from "../core/ids"
import { transactionView } from "../core/views"
import type { Merchant, TransactionRecord } from "../core/types"
import type { z } from "zod"

export const OPERATION = "POST /api/transactions/manage"
type ManageBody = z.output<typeof manageRequest>
type Operation = ManageBody["transaction_type"]

/** Whether an operation applies to the original now, and how much money it may move at most. */
type Verdict = { applies: true; limit: number } | { applies: false; why: string }

function judgeCapture(p: TransactionRecord): Verdict {
  if (p.transaction_type !== "AUTHORIZE") return { applies: false, why: `CAPTURE applies only to an AUTHORIZE transaction, not ${p.transaction_type}` }
  if (p.status !== "APPROVED") return { applies: false, why: `cannot capture a ${p.status} transaction` }
  if (p.final_capture) return { applies: false, why: "captures were closed by a final capture" }
  const remaining = p.amount - p.captured_amount
  // Assumption: nothing left to capture is an operation that no longer applies (declined), not a 422.
  if (remaining === 0) return { applies: false, why: "the authorization is already fully captured" }
  return { applies: true, limit: remaining }
}

// Assumption: PAYMENT (alternative methods) is refundable in the sandbox; the spec leaves it to provider and method.
const REFUNDABLE = new Set(["PURCHASE", "AUTHORIZE", "PAYMENT"])

function judgeRefund(p: TransactionRecord): Verdict {
  if (!REFUNDABLE.has(p.transaction_type)) return { applies: false, why: `REFUND does not apply to a ${p.transaction_type} transaction` }
  if (p.status !== "APPROVED") return { applies: false, why: `cannot refund a ${p.status} transaction` }
  // An AUTHORIZE is refundable only for what was captured; a purchase for its whole amount.
  const base = p.transaction_type === "AUTHORIZE" ? p.captured_amount : p.amount
  if (base === 0) return { applies: false, why: "nothing was captured, so nothing can be refunded (void the authorization instead)" }
  const remaining = base - p.refunded_amount
  if (remaining === 0) return { applies: false, why: "already fully refunded" }
  return { applies: true, limit: remaining }
}

function judgeVoid(p: TransactionRecord): Verdict {
  // Alternative payments, payouts and OCT are single-step flows: there is nothing held to release.
  if (p.transaction_type !== "AUTHORIZE" && p.transaction_type !== "PURCHASE")
    return { applies: false, why: `VOID does not apply to a ${p.transaction_type} transaction` }
  // Assumption: a transaction still in flight (CREATED: 3-D Secure not finished, or PENDING) may be voided;
  // VOID releases the whole hold whatever amount (up to the original) is sent.
  if (p.status === "CREATED" || p.status === "PENDING") return { applies: true, limit: p.amount }
  if (p.status !== "APPROVED") return { applies: false, why: `cannot void a ${p.status} transaction` }
  if (p.transaction_type === "PURCHASE") return { applies: false, why: "VOID does not apply to an approved PURCHASE; refund it instead" }
  if (p.captured_amount > 0) return { applies: false, why: "cannot void an authorization after a capture" }
  return { applies: true, limit: p.amount }
}

const JUDGES: Record<Operation, (p: TransactionRecord) => Verdict> = {
  CAPTURE: judgeCapture,
  REFUND: judgeRefund,
  VOID: judgeVoid,
}

/** The original the operation runs against: by parent_transaction_id when given, else by (terminal, reference). */
function findOriginal(ctx: SandboxContext, merchant: Merchant, body: ManageBody, req: SandboxRequest): TransactionRecord {
  if (body.parent_transaction_id !== undefined) {
    const tx = ctx.store.getTransaction(merchant.merchant_id, body.parent_transaction_id)
    // Assumption: the id must name the original transaction of this terminal and reference (not a management child).
    if (!tx || tx.parent_id !== null || tx.terminal_id !== body.terminal_id || tx.reference !== body.reference)
      throw invalid(req, "parent_transaction_id", "does not name a transaction of this terminal and reference", [body.parent_transaction_id])
    return tx
  }
  const tx = ctx.store.findByReference(merchant.merchant_id, body.terminal_id, body.reference)
  // Assumption: an unknown reference is a validation error on `reference` (no transaction can be created without a parent).
  if (!tx) throw invalid(req, "reference", "no transaction with this reference on this terminal", [body.reference])
  return tx
}

/** Move the money on the original once the operation is approved. */
function applyToOriginal(ctx: SandboxContext, parent: TransactionRecord, body: ManageBody): void {
  switch (body.transaction_type) {
    case "CAPTURE":
      parent.captured_amount += body.amount
      if (body.options?.final_capture === true) parent.final_capture = true
      break
    case "REFUND":
      parent.refunded_amount += body.amount
      break
    case "VOID":
      if (parent.status === "APPROVED") {
        // APPROVED is final, and setStatus never moves a final status: the void itself is the documented
        // exception, so the original is set to CANCELED here; the management:void webhook announces it.
        parent.status = "CANCELED"
        parent.processing_code = "1003"
        parent.response_message = "Canceled"
      } else {
        // Still in flight: an ordinary transition, which also sends the original's own webhook.
        ctx.store.setStatus(parent, "CANCELED")
      }
      break
  }
  parent.updated_at = nowIso()
}

export async function manage(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, manageRequest)
  const parent = findOriginal(ctx, merchant, body, req)

  if (body.currency !== parent.currency)
    throw invalid(req, "currency", `must be ${parent.currency}, the currency of the original transaction`, [parent.currency, body.currency])
  if (body.amount > parent.amount)
    throw invalid(req, "amount", `must be less than or equal to ${parent.amount}, the original amount`, [String(parent.amount), String(body.amount)])

  const refusal = (() => {
    const check = checkTerminal(merchant, body.terminal_id)
    return "refusal" in check ? check.refusal : null
  })()
  const verdict = JUDGES[body.transaction_type](parent)
  if (!refusal && verdict.applies && body.amount > verdict.limit) {
    const what = body.transaction_type.toLowerCase()
    throw invalid(req, "amount", `must be less than or equal to ${verdict.limit}, what remains to ${what}`, [String(verdict.limit), String(body.amount)])
  }

  const child = ctx.store.createTransaction(
    {
      merchant_id: merchant.merchant_id,
      terminal_id: parent.terminal_id,
      reference: parent.reference,
      description: parent.description,
      currency: parent.currency,
      amount: body.amount,
      transaction_type: body.transaction_type,
      status: "CREATED",
      parent_id: parent.id,
      integration_type: parent.integration_type,
      payment_method: parent.payment_method,
      customer: parent.customer,
      metadata: body.metadata ?? {},
      customer_ip: req.remoteAddress,
      originator_url: parent.originator_url,
    },
    OPERATION,
  )
  if (refusal) {
    // Like an initial transaction, a terminal or merchant that cannot operate gives INVALID with 2014-2017.
    ctx.store.setStatus(child, "INVALID", { processing_code: refusal.processing_code, response_message: refusal.message })
  } else if (!verdict.applies) {
    ctx.store.setStatus(child, "DECLINED", { processing_code: "1000", response_message: `Declined: ${verdict.why}` })
  } else {
    // The original changes first so the webhook of the child is sent once the state is consistent.
    applyToOriginal(ctx, parent, body)
    ctx.store.setStatus(child, "APPROVED")
  }
  return json(200, transactionView(child))
}
