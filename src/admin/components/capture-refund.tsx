/**
 * The order widget's "Capture…" and "Refund…" for one PGS payment, and the list of its captures and refunds with
 * who made each. Both go through Medusa's own admin routes (POST /admin/payments/:id/capture and /refund), so
 * Medusa's workflows write the records and the provider talks to the gateway; the amount the admin saw captured
 * (or refunded) goes along, and the server refuses the operation if the payment moved meanwhile (another admin,
 * a second click). Amounts are checked in whole minor units, in the order's currency.
 */
import { Badge, Button, Input, Text, Textarea, toast } from "@medusajs/ui"
import { useRef, useState } from "react"
import { api, ApiError } from "../lib/api"
import { decimalsOf, fromMinor, roundedToMinor, toMinor } from "../lib/amounts"
import { dateTime, money } from "../lib/format"
import type { OrderPayment } from "../lib/types"
import { actorWords } from "../lib/words"
import { Field } from "./field"
import { FormShell } from "./form-shell"

type Operation = "capture" | "refund"

const EXPECT_HEADER: Record<Operation, string> = { capture: "x-pgs-expect-captured", refund: "x-pgs-expect-refunded" }

/** What the payment allows now, in minor units: what the gateway has left (the guard's header is Medusa's sums). */
function limits(p: OrderPayment) {
  const m = p.medusa
  const decimals = decimalsOf(m.amount)
  const [captured, refunded, leftToCapture, leftToRefund] = [m.captured_amount, m.refunded_amount, m.left_to_capture, m.left_to_refund].map((a) => toMinor(a, decimals) ?? 0)
  const authorization = p.recorded.transaction_type === "AUTHORIZE" && m.state !== "canceled" && m.state !== "failed" && !!p.payment_id
  return { decimals, captured, refunded, toCapture: authorization ? leftToCapture : 0, toRefund: p.payment_id ? leftToRefund : 0 }
}

/**
 * What the order owes the customer by Medusa's summary (`pending_difference` below zero: an edit, return, claim or
 * exchange took something off a paid order), in minor units; 0 when nothing is owed or the amount is not exact.
 */
function owedToCustomer(pendingDifference: number | null | undefined, decimals: number): number {
  if (typeof pendingDifference !== "number" || pendingDifference >= 0) return 0
  // A taxed total owes fractions of a cent (30.345): rounded as the gateway's amounts are; the exact rest still goes.
  return roundedToMinor(String(-pendingDifference), decimals) ?? 0
}

/** The amount a form starts with: a capture takes everything left; a refund what the customer is owed, else nothing (the admin says how much). */
function startingAmount(operation: Operation, limit: number, owed: number): number | null {
  if (operation === "capture") return limit
  return owed > 0 ? Math.min(owed, limit) : null
}

function OperationForm({ p, operation, owed, onClose, onDone }: { p: OrderPayment; operation: Operation; owed: number; onClose(): void; onDone(): void }) {
  const l = limits(p)
  const limit = operation === "capture" ? l.toCapture : l.toRefund
  const currency = p.medusa.currency_code.toUpperCase()
  const start = startingAmount(operation, limit, owed)
  const [amount, setAmount] = useState(start === null ? "" : fromMinor(start, l.decimals))
  const [note, setNote] = useState("")
  const [error, setError] = useState<ApiError | null>(null)
  const [busy, setBusy] = useState(false)
  // A second click before React re-renders must not send a second request.
  const sending = useRef(false)

  const minor = toMinor(amount, l.decimals)
  // Nothing typed yet: no error (the hint says what is allowed); the form is not sent.
  const problem =
    amount.trim() === ""
      ? null
      : minor === null
      ? `Give an amount such as ${fromMinor(limit, l.decimals)}${l.decimals ? ` (at most ${l.decimals} decimals)` : " (no decimals)"}`
      : minor <= 0
        ? "Give an amount above zero"
        : minor > limit
          ? `At most ${fromMinor(limit, l.decimals)} ${currency}`
          : null
  const final = operation === "capture" && minor === limit

  const submit = async () => {
    if (problem || minor === null || sending.current) return
    sending.current = true
    setBusy(true)
    setError(null)
    try {
      await api(`/admin/payments/${p.payment_id}/${operation}`, {
        method: "POST",
        // Everything left goes as Medusa's exact rest (a taxed total may carry a fraction of a cent the form shows rounded).
        body: { amount: Number(minor === limit ? (operation === "capture" ? p.medusa.rest_to_capture : p.medusa.rest_to_refund) : fromMinor(minor, l.decimals)), ...(operation === "refund" && note.trim() ? { note: note.trim() } : {}) },
        headers: { [EXPECT_HEADER[operation]]: String(operation === "capture" ? l.captured : l.refunded) },
      })
      toast.success(`${operation === "capture" ? "Captured" : "Refunded"} ${money(fromMinor(minor, l.decimals), p.medusa.currency_code)}`)
      onDone()
      onClose()
    } catch (e) {
      const failure = ApiError.from(e)
      setError(failure)
      // The payment moved (another admin, another tab): show what it holds now.
      if (failure.status === 409) onDone()
    } finally {
      sending.current = false
      setBusy(false)
    }
  }

  const label = operation === "capture" ? "Capture part of the payment" : "Refund part of the payment"
  return (
    <div className="rounded-lg border" data-testid={`pgs-${operation}-form`}>
      <FormShell label={label} title={label} error={error} busy={busy} submitText={operation === "capture" ? "Capture" : "Refund"} onSubmit={submit} onCancel={onClose}>
        <Field
          id={`pgs-${operation}-amount`}
          label={`Amount (${currency})`}
          error={problem ?? undefined}
          hint={
            operation === "capture"
              ? final
                ? `Captures everything left: the final capture, the gateway closes the authorization.`
                : `Up to ${fromMinor(limit, l.decimals)} ${currency} left to capture; the rest stays authorized.`
              : `Up to ${fromMinor(limit, l.decimals)} ${currency} captured and not refunded.${owed > 0 ? ` Medusa says the customer is owed ${fromMinor(owed, l.decimals)} ${currency}.` : ""}`
          }
        >
          <Input id={`pgs-${operation}-amount`} inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        {operation === "refund" ? (
          <Field id="pgs-refund-note" label="Note (optional)" hint="Kept with Medusa's refund record.">
            <Textarea id="pgs-refund-note" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} />
          </Field>
        ) : null}
      </FormShell>
    </div>
  )
}

/** Captures and refunds Medusa recorded for the payment, with who made each. */
function OperationsList({ p }: { p: OrderPayment }) {
  if (!p.operations?.length) return null
  return (
    <div>
      <Text size="small" weight="plus">Captures and refunds</Text>
      <ul className="mt-1 flex flex-col gap-y-1" aria-label="Captures and refunds" data-testid="pgs-operations">
        {p.operations.map((o) => (
          <li key={o.id} className="flex flex-wrap items-center gap-x-2">
            <Text size="small">
              {o.kind === "capture" ? "Captured" : "Refunded"} {money(o.amount, p.medusa.currency_code)}
            </Text>
            {o.final_capture ? <Badge size="2xsmall">Final capture</Badge> : null}
            {o.unconfirmed ? <Badge size="2xsmall" color="orange">Not confirmed by the gateway</Badge> : null}
            {o.reason ? <Badge size="2xsmall">{o.reason}</Badge> : null}
            {o.nothing_sent ? (
              <Text size="xsmall" className="text-ui-fg-subtle">
                nothing sent: a fraction of a cent the ones before it already carried
              </Text>
            ) : null}
            <Text size="xsmall" className="text-ui-fg-subtle">
              {actorWords(o.by)}
              {o.created_at ? ` · ${dateTime(o.created_at)}` : ""}
            </Text>
            {o.note ? (
              <Text size="xsmall" className="w-full text-ui-fg-subtle" data-testid="pgs-operation-note">
                “{o.note}”
              </Text>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * "Capture…" and "Refund…" for any part of the payment, the open form, and the operations so far. On a canceled
 * order the provider refuses both (a refund there would be made and then left off the order, FRAMEWORK-NOTES 67; a
 * capture would take money for a canceled order), so the admin is told what to do in the gateway's dashboard instead.
 */
export function CaptureRefund({ p, orderCanceled, pendingDifference, onDone }: { p: OrderPayment; orderCanceled: boolean; pendingDifference?: number | null; onDone(): void }) {
  const [open, setOpen] = useState<Operation | null>(null)
  const l = limits(p)
  const owed = owedToCustomer(pendingDifference, l.decimals)
  return (
    <div className="flex flex-col gap-y-3">
      <OperationsList p={p} />
      {orderCanceled && l.toRefund > 0 ? (
        <Text size="small" data-testid="pgs-canceled-refund">
          The order is canceled and {money(fromMinor(l.toRefund, l.decimals), p.medusa.currency_code)} captured is not refunded. Medusa cannot record a refund on a
          canceled order: refund it in the gateway's dashboard, and it is recorded here.
        </Text>
      ) : null}
      {orderCanceled && l.toCapture > 0 ? (
        <Text size="small" data-testid="pgs-canceled-authorized">
          {l.captured === 0
            ? `The order is canceled and ${money(fromMinor(l.toCapture, l.decimals), p.medusa.currency_code)} is still authorized: void it in the gateway's dashboard, and it is recorded here.`
            : // The gateway voids only before a capture (spec: VOID "before capture").
              `The order is canceled and ${money(fromMinor(l.toCapture, l.decimals), p.medusa.currency_code)} of the authorization was never captured. The gateway voids an authorization only before any capture, so this part stays held on the customer's card until their bank lets the authorization lapse (nothing more is taken). It is on Needs attention as "Still held on the card": tell the customer if they ask about it.`}
        </Text>
      ) : null}
      {!orderCanceled && (l.toCapture > 0 || l.toRefund > 0) ? (
        <div className="flex flex-wrap gap-2">
          {l.toCapture > 0 ? (
            <Button size="small" variant="secondary" onClick={() => setOpen("capture")} disabled={open !== null}>
              Capture…
            </Button>
          ) : null}
          {l.toRefund > 0 ? (
            <Button size="small" variant="secondary" onClick={() => setOpen("refund")} disabled={open !== null}>
              Refund…
            </Button>
          ) : null}
        </div>
      ) : null}
      {open ? <OperationForm key={open} p={p} operation={open} owed={owed} onClose={() => setOpen(null)} onDone={onDone} /> : null}
    </div>
  )
}
