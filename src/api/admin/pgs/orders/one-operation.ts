/**
 * In front of Medusa's own POST /admin/payments/:id/capture and /refund, for PGS payments: one capture or refund of
 * a payment at a time (a lock held until the answer is sent: operation-lock.ts), and, when the dashboard says what it saw
 * (`x-pgs-expect-captured` / `x-pgs-expect-refunded`, minor units), a 409 if the payment moved since. A double click
 * or two admins pressing at once so make one gateway operation: the second finds the first done and is refused
 * before Medusa's workflow (and the gateway) is reached. Medusa's route, workflow and records stay the only path.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../../../../gateway"
import { medusaAmountInMinorUnits } from "../../../../lib/medusa-amount"
import { looseQuery } from "../../../../lib/loose-query"
import { underOperationLock } from "./operation-lock"

export const EXPECT_HEADER = { capture: "x-pgs-expect-captured", refund: "x-pgs-expect-refunded" } as const
type Operation = keyof typeof EXPECT_HEADER

type Amount = { raw_amount?: unknown; amount?: unknown }
type PaymentRow = { id: string; provider_id: string; currency_code: string; captures?: Amount[]; refunds?: Amount[] }

const summed = (rows: Amount[] | undefined, currency: string) =>
  medusaAmountInMinorUnits(MathBN.add(0, ...(rows ?? []).map((r) => (r.raw_amount ?? r.amount ?? 0) as BigNumberInput)).toFixed(), currency)

async function paymentOf(req: MedusaRequest, id: string): Promise<PaymentRow | null> {
  const { data } = await looseQuery(req.scope).graph({
    entity: "payment",
    fields: ["id", "provider_id", "currency_code", "captures.raw_amount", "refunds.raw_amount"],
    filters: { id },
  })
  return (data[0] as PaymentRow | undefined) ?? null
}

function conflict(res: MedusaResponse, operation: Operation, currency: string, expected: number, now: number) {
  const done = operation === "capture" ? "captured" : "refunded"
  const said = (minor: number) => `${fromMinorUnits(minor, currency)} ${currency.toUpperCase()}`
  res.status(409).json({
    type: "conflict",
    code: `pgs_${operation}_moved`,
    message: `The payment changed while you were looking at it: ${said(now)} is ${done} now, you saw ${said(expected)}. Nothing was sent to the gateway; check the amounts and try again.`,
    expected,
    actual: now,
  })
}

export function oneOperationAtATime(operation: Operation) {
  return async (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    try {
      const id = req.params.id
      const first = id ? await paymentOf(req, id) : null
      if (!first || !first.provider_id.startsWith("pp_pgs")) return next()
      const header = req.get(EXPECT_HEADER[operation])
      const expected = header === undefined ? null : /^\d{1,18}$/.test(header) ? Number(header) : NaN
      if (Number.isNaN(expected)) {
        res.status(400).json({ type: "invalid_data", message: `Header ${EXPECT_HEADER[operation]} must be a whole number of minor units`, errors: [{ field: EXPECT_HEADER[operation], message: "must be a whole number of minor units" }] })
        return
      }
      await underOperationLock(req.scope, id, async () => {
        if (expected !== null) {
          const current = await paymentOf(req, id)
          const now = summed(operation === "capture" ? current?.captures : current?.refunds, first.currency_code)
          if (now !== expected) return conflict(res, operation, first.currency_code, expected, now)
        }
        // Held until Medusa's route has answered (or the client went away), however long that takes.
        await new Promise<void>((resolve) => {
          res.once("finish", resolve)
          res.once("close", resolve)
          next()
        })
      })
    } catch (error) {
      if (!res.headersSent) next(error)
    }
  }
}
