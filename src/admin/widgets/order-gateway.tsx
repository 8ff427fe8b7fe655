/**
 * Order page: the gateway transaction(s) behind the order's PGS payments and the webhooks received for them.
 * Capture, refund and cancel stay Medusa's own buttons (they go through the provider); "Sync from gateway" reads the
 * status endpoint again.
 */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminOrder, DetailWidgetProps } from "@medusajs/framework/types"
import { Badge, Button, Container, Heading, StatusBadge, Text, toast } from "@medusajs/ui"
import { api } from "../lib/api"
import { dateTime, statusColor } from "../lib/format"
import { useAction } from "../lib/use-action"
import { useLoad } from "../lib/use-load"
import type { OrderGateway, OrderPayment } from "../lib/types"

function Row({ label, value }: { label: string; value: string | number | null | undefined }) {
  return (
    <div className="flex justify-between gap-x-4">
      <dt className="txt-small text-ui-fg-subtle">{label}</dt>
      <dd className="txt-small text-right">{value === null || value === undefined || value === "" ? "—" : value}</dd>
    </div>
  )
}

function PaymentBlock({ p }: { p: OrderPayment }) {
  const g = p.gateway
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="pgs-order-payment">
      <div className="flex items-center gap-x-2">
        <Text weight="plus">{p.transaction_id ?? "No gateway transaction yet"}</Text>
        {g ? <StatusBadge color={statusColor(g.status)}>{g.status}</StatusBadge> : null}
        {p.in_sync === false ? <Badge color="orange">Medusa differs: waiting for the webhook</Badge> : null}
      </div>
      {p.gateway_error ? (
        <Text size="small" className="text-ui-fg-error" role="alert">
          Gateway not read: {p.gateway_error}
        </Text>
      ) : null}
      {g ? (
        <dl className="grid grid-cols-1 gap-x-8 gap-y-1 md:grid-cols-2">
          <Row label="Approved / pending" value={`${g.approved ? "approved" : "not approved"} / ${g.pending ? "pending" : "final"}`} />
          <Row label="Transaction type" value={g.transaction_type} />
          <Row label="Processing code" value={g.processing_code} />
          <Row label="Message" value={g.response_message ?? g.outcome.message} />
          <Row label="3-D Secure" value={g.three_ds} />
          <Row label="Card" value={[g.brand, g.masked].filter(Boolean).join(" ")} />
          <Row label="Approval code" value={g.approval_code} />
          <Row label="Retries" value={g.retry ? `${g.retry.count ?? 0} (${g.retry.status ?? "—"})` : "none"} />
          <Row label="Terminal" value={g.terminal_id} />
          <Row label="Medusa session" value={`${p.session_status} · ${String(p.recorded.gateway_status ?? "—")}`} />
        </dl>
      ) : null}
      <div>
        <Text size="small" weight="plus">Webhook timeline</Text>
        {p.events.length ? (
          <ol className="mt-2 flex flex-col gap-y-2 border-l pl-4" aria-label="Webhook timeline">
            {p.events.map((e) => (
              <li key={e.id} data-testid="pgs-timeline-event">
                <Text size="small">
                  <span className="font-medium">{e.event}</span> · {e.status ?? "—"}
                  {e.processing_code ? ` (${e.processing_code})` : ""} · {e.transaction_id}
                </Text>
                <Text size="xsmall" className="text-ui-fg-subtle">
                  received {dateTime(e.received_at)} · {e.processed_at ? `processed ${dateTime(e.processed_at)}` : "not processed yet"}
                  {e.outcome ? ` · ${e.outcome}` : ""}
                  {e.error ? ` · error: ${e.error}` : ""}
                </Text>
              </li>
            ))}
          </ol>
        ) : (
          <Text size="small" className="text-ui-fg-subtle">No webhook received yet.</Text>
        )}
      </div>
    </div>
  )
}

const OrderGatewayWidget = ({ data: order }: DetailWidgetProps<AdminOrder>) => {
  const view = useLoad(() => api<OrderGateway>(`/admin/pgs/orders/${order.id}/gateway`), [order.id])
  const syncing = useAction()

  const sync = () =>
    syncing.run(async () => {
      try {
        view.setData(await api<OrderGateway>(`/admin/pgs/orders/${order.id}/sync`, { method: "POST" }))
        toast.success("Read from the gateway")
      } catch (e) {
        toast.error((e as Error).message)
      }
    })

  if (view.data && !view.data.payments.length) return null
  return (
    <Container className="divide-y p-0" aria-label="Payment gateway">
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
      {view.data?.payments.map((p) => <PaymentBlock key={p.payment_session_id} p={p} />)}
    </Container>
  )
}

export const config = defineWidgetConfig({ zone: "order.details.after", id: "pgs-order-gateway" })

export default OrderGatewayWidget
