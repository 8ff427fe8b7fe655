/** One payout: status, beneficiary (masked), the gateway's answer. */
import { Button, Heading, StatusBadge, Text } from "@medusajs/ui"
import { Panel } from "../../../components/panel"
import { Link, useParams } from "react-router-dom"
import { api } from "../../../lib/api"
import { dateTime, money, statusColor } from "../../../lib/format"
import { useLoad } from "../../../lib/use-load"
import type { Payout } from "../../../lib/types"
import { gatewayStatusWords } from "../../../lib/words"

const PayoutDetails = () => {
  const { id } = useParams()
  const { data: p, error, reload, loading } = useLoad(() => api<{ payout: Payout }>(`/admin/pgs/payouts/${id}`).then((r) => r.payout), [id])
  if (error) return <Text className="text-ui-fg-error">{error.message}</Text>
  if (!p) return <Text>Loading…</Text>
  const rows: Array<[string, string | null]> = [
    ["Amount", money(p.amount, p.currency_code)],
    ["Method", p.method === "card" ? `Card (${p.transaction_type})` : "Bank account"],
    ["Beneficiary", [p.beneficiary_name, p.card_brand, p.masked].filter(Boolean).join(" ")],
    ["Description", p.description],
    ["Terminal", p.terminal_id],
    ["Gateway transaction", p.transaction_id],
    ["Processing code", p.processing_code],
    ["Gateway message", p.response_message],
    ["Note", p.note],
    ["Errors", p.errors?.length ? JSON.stringify(p.errors) : null],
    ["Created", dateTime(p.created_at)],
    ["Updated", dateTime(p.updated_at)],
  ]
  return (
    <Panel label="Payout">
      <div className="flex items-center justify-between px-6 py-4">
        <div className="flex items-center gap-x-2">
          <Heading level="h1">Payout {p.reference}</Heading>
          <StatusBadge color={statusColor(p.status)}>{gatewayStatusWords(p.status)}</StatusBadge>
        </div>
        <Link to="/pgs-payouts" className="txt-small text-ui-fg-interactive">All payouts</Link>
      </div>
      {p.status === "PENDING" && (
        <div className="flex items-center justify-between gap-x-4 px-6 py-4" data-testid="pgs-payout-pending">
          <Text className="txt-small text-ui-fg-subtle">
            The gateway is still working on this payout. It settles it by itself and sends a webhook, which updates the
            status here; nothing needs to be done. Refresh to see the final status.
          </Text>
          <Button size="small" variant="secondary" onClick={() => void reload()} isLoading={loading}>Refresh</Button>
        </div>
      )}
      <dl className="grid grid-cols-1 gap-y-2 px-6 py-4">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-x-4">
            <dt className="txt-small text-ui-fg-subtle">{label}</dt>
            <dd className="txt-small break-all text-right">{value || "—"}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  )
}

export default PayoutDetails
