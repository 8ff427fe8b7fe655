/**
 * Order page: Medusa's current state of the order's PGS payments, the gateway transaction(s) behind them and what
 * the gateway told us, in a shop admin's words (lib/words.ts). "Capture…" and "Refund…" take any part through
 * Medusa's own routes (components/capture-refund.tsx); "Sync from gateway" reads the status endpoint again. When
 * the order owes more (order edit, exchange, claim), it offers a pay link and, for a card saved with consent,
 * "Charge saved card".
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Heading, StatusBadge, Text, toast } from "@medusajs/ui"
import { Panel } from "../components/panel"
import { Link } from "react-router-dom"
import { CaptureRefund } from "../components/capture-refund"
import { api } from "../lib/api"
import { dateTime, money, statusColor } from "../lib/format"
import { useAction } from "../lib/use-action"
import { useRefreshMedusaOrder } from "../lib/medusa-order-cache"
import { useLoad } from "../lib/use-load"
import type { OrderGateway, OrderPayment, OwedView, TimelineEvent } from "../lib/types"
import { OwedPayments } from "../components/owed-payment"
import { actorWords, eventWords, gatewayStatusWords, outcomeWords, sourceWords, stateColor, stateWords, transactionTypeWords } from "../lib/words"

function Row({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <div className="flex justify-between gap-x-4">
      <dt className="txt-small shrink-0 whitespace-nowrap text-ui-fg-subtle">{label}</dt>
      <dd className="txt-small min-w-0 break-words text-right">{value === null || value === undefined || value === "" ? "—" : value}</dd>
    </div>
  )
}

const nonZero = (decimal: string) => !/^0(\.0*)?$/.test(decimal)

/** One event: what happened (with its amount), what it did here, and when and how it came. */
function TimelineItem({ e }: { e: TimelineEvent }) {
  const did = outcomeWords(e.outcome, e.error)
  return (
    <li data-testid="pgs-timeline-event">
      <Text size="small">
        <span className="font-medium">{eventWords(e.event, e.transaction_type)}</span>
        {e.money ? ` · ${money(e.money.amount, e.money.currency_code)}` : ""}
        {did ? ` — ${did}` : " — not processed yet"}
      </Text>
      <Text size="xsmall" className="text-ui-fg-subtle" title={`${e.event} · ${e.outcome ?? ""} · ${e.transaction_id ?? ""}`}>
        {dateTime(e.received_at)} · {sourceWords(e.source)}
        {e.by && e.by.kind !== "gateway_dashboard" ? ` · ${actorWords(e.by)}` : ""}
        {e.error ? ` · ${e.error}` : ""}
      </Text>
    </li>
  )
}

/** "captured €10.00 · refunded €10.00": what came after the authorization, which stays APPROVED at the gateway. */
function gatewaySums(confirmed: NonNullable<OrderPayment["confirmed_by_gateway"]>, currency: string): string {
  return [
    nonZero(confirmed.captured) ? `captured ${money(confirmed.captured, currency)}` : "",
    nonZero(confirmed.refunded) ? `refunded ${money(confirmed.refunded, currency)}` : "",
  ].filter(Boolean).join(" · ")
}

/** What happens next to the unconfirmed operations, by where Needs attention stands on them. */
function unconfirmedNext(operations: OrderPayment["operations"]): string {
  const items = operations.filter((o) => o.unconfirmed).map((o) => o.unconfirmed_item)
  if (items.includes("open")) return "The gateway has no record of it: it is listed under Needs attention, where a person decides."
  if (items.includes("unwatched"))
    return "It is older than the 7 days reconciliation looks back, so nothing will check it: compare Medusa's sums with what the gateway confirmed, below."
  if (items.every((i) => i === "closed")) return "A person dealt with it on Needs attention; Medusa's record of it stays as it is."
  return "Reconciliation, which runs every 5 minutes, checks it with the gateway once it is 5 minutes old: it records it if the gateway made it, and lists it under Needs attention if not."
}

/** `pendingDifference`: Medusa's order summary (below zero: the order owes the customer). */
function PaymentBlock({ p, orderCanceled, pendingDifference, onDone }: { p: OrderPayment; orderCanceled: boolean; pendingDifference?: number | null; onDone(): void }) {
  const g = p.gateway
  const m = p.medusa
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="pgs-order-payment">
      {/* Named as Medusa's Payments section names it (#, the id's last 7 characters), so the two can be matched. */}
      <Text size="small" weight="plus" title={p.payment_id ?? p.payment_session_id} data-testid="pgs-payment-name">
        {p.payment_id ? `Payment #${p.payment_id.slice(-7)}` : "No payment in Medusa"}
      </Text>
      <div className="flex flex-wrap items-center gap-2" data-testid="pgs-medusa-state">
        <Text size="small" className="text-ui-fg-subtle">In Medusa</Text>
        <StatusBadge color={stateColor(m.state)}>{stateWords(m.state)}</StatusBadge>
        <Text size="small">
          {money(m.amount, m.currency_code)}
          {nonZero(m.captured_amount) ? ` · captured ${money(m.captured_amount, m.currency_code)}` : ""}
          {nonZero(m.refunded_amount) ? ` · refunded ${money(m.refunded_amount, m.currency_code)}` : ""}
        </Text>
      </div>
      {p.confirmed_by_gateway?.unconfirmed ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="pgs-unconfirmed-note">
          Medusa's sums include {p.confirmed_by_gateway.unconfirmed === 1 ? "an operation" : `${p.confirmed_by_gateway.unconfirmed} operations`} the
          gateway has not confirmed (marked below): the store stopped while making it, or it is still being made.{" "}
          {unconfirmedNext(p.operations)}
        </Text>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <Text size="small" className="text-ui-fg-subtle">At the gateway</Text>
        {g ? <StatusBadge color={statusColor(g.status)}>{gatewayStatusWords(g.status)}</StatusBadge> : null}
        <Text size="small" className="font-mono">{p.transaction_id ?? "No gateway transaction yet"}</Text>
        {g && p.confirmed_by_gateway ? <Text size="small" data-testid="pgs-gateway-sums">{gatewaySums(p.confirmed_by_gateway, m.currency_code)}</Text> : null}
        {p.in_sync === false ? <Badge color="orange">Medusa differs: waiting for the webhook</Badge> : null}
      </div>
      {p.late_money_given_back ? (
        <Text size="small" className="text-ui-fg-subtle" data-testid="pgs-late-money">
          The shopper paid this after it was no longer wanted here, so no Medusa payment holds it: it was{" "}
          {p.late_money_given_back === "void" ? "released (voided)" : "refunded"} automatically. Needs attention keeps the record.
        </Text>
      ) : null}
      {p.gateway_error ? (
        <Text size="small" className="text-ui-fg-error" role="alert">
          Gateway not read: {p.gateway_error}
        </Text>
      ) : null}
      {g ? (
        <dl className="grid grid-cols-1 gap-x-8 gap-y-1 md:grid-cols-2">
          <Row label="Transaction type" value={transactionTypeWords(g.transaction_type)} />
          <Row label="Gateway's answer" value={g.pending ? `${g.outcome.message} Not final yet.` : g.outcome.message} />
          <Row label="3-D Secure" value={g.three_ds} />
          <Row label="Card" value={[g.brand, g.masked].filter(Boolean).join(" ")} />
          <Row label="Approval code" value={g.approval_code} />
          <Row label="Retries by the gateway" value={g.retry?.count ? `${g.retry.count} (${g.retry.status ?? "—"})` : "none"} />
          <Row label="Terminal" value={g.terminal_id} />
        </dl>
      ) : null}
      <CaptureRefund p={p} orderCanceled={orderCanceled} pendingDifference={pendingDifference} onDone={onDone} />
      <div>
        <Text size="small" weight="plus">What the gateway told us</Text>
        {p.events.length ? (
          <ol className="mt-2 flex flex-col gap-y-2 border-l pl-4" aria-label="What the gateway told us">
            {p.events.map((e) => <TimelineItem key={e.id} e={e} />)}
          </ol>
        ) : (
          <Text size="small" className="text-ui-fg-subtle">Nothing from the gateway yet.</Text>
        )}
      </div>
    </div>
  )
}

const OrderGatewayWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  // Read again when Medusa's own buttons (capture, refund, cancel) change the order's payment.
  const view = useLoad(() => api<OrderGateway>(`/admin/pgs/orders/${order.id}/gateway`), [order.id, order.payment_status, order.status])
  const owed = useLoad(() => api<OwedView>(`/admin/pgs/orders/${order.id}/pay-link`), [order.id, order.payment_status])
  const syncing = useAction()
  const refreshMedusa = useRefreshMedusaOrder()
  // After a capture, refund or charge made here: our view, and Medusa's sections of the page (which then change the
  // order's payment_status, reading ours again too).
  const changed = (...reloads: Array<() => Promise<unknown> | void>) => () => {
    for (const reload of reloads) void reload()
    refreshMedusa()
  }

  const sync = () =>
    syncing.run(async () => {
      try {
        view.setData(await api<OrderGateway>(`/admin/pgs/orders/${order.id}/sync`, { method: "POST" }))
        toast.success("Read from the gateway")
      } catch (e) {
        toast.error((e as Error).message)
      }
    })

  if (view.data && !view.data.payments.length && !owed.data?.owed.length) return null
  return (
    <Panel label="Payment gateway">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Payment gateway</Heading>
          {view.data ? <Text size="xsmall" className="text-ui-fg-subtle">Read {dateTime(view.data.read_at)}</Text> : null}
        </div>
        <Button size="small" variant="secondary" onClick={sync} isLoading={syncing.busy}>
          Sync from gateway
        </Button>
      </div>
      {view.error ? <Text className="px-6 py-4 text-ui-fg-error">{view.error.message}</Text> : null}
      {!view.data && !view.error ? <Text className="px-6 py-4">Loading…</Text> : null}
      {view.data?.needs_attention ? (
        <div className="flex items-center gap-x-2 px-6 py-3" data-testid="pgs-order-attention">
          <Badge color="red">{view.data.needs_attention}</Badge>
          <Text size="small">
            This order needs attention: <Link to="/pgs/attention" className="text-ui-fg-interactive">see Needs attention</Link>
          </Text>
        </div>
      ) : null}
      {owed.data ? (
        <OwedPayments
          orderId={order.id}
          owed={owed.data.owed}
          validDays={owed.data.valid_days}
          cards={owed.data.chargeable_cards ?? []}
          onPaid={changed(owed.reload, view.reload)}
        />
      ) : null}
      {view.data?.payments.map((p) => <PaymentBlock key={p.payment_session_id} p={p} orderCanceled={order.status === "canceled"} pendingDifference={order.summary?.pending_difference} onDone={changed(view.reload)} />)}
    </Panel>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after", id: "pgs-order-gateway" })

export default OrderGatewayWidget
