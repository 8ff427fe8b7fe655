/** Payouts: the list (newest first) with status and reference filters, and the create form. */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Button, Heading, Input, Label, StatusBadge, Table, Text } from "@medusajs/ui"
import { Panel } from "../../components/panel"
import { useState } from "react"
import { Link } from "react-router-dom"
import { Pager, useCursorPages } from "../../components/pager"
import { Choice } from "../../components/choice"
import { api } from "../../lib/api"
import { dateTime, money, statusColor } from "../../lib/format"
import { useLoad } from "../../lib/use-load"
import type { Payout } from "../../lib/types"
import { gatewayStatusWords } from "../../lib/words"
import { PayoutForm } from "./payout-form"
import { GatewayHealthBanner } from "../../components/gateway-health-banner"

const STATUSES = ["CREATING", "PENDING", "FAILED", "APPROVED", "DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"]
const PAGE = 20

const PayoutsPage = () => {
  const [status, setStatus] = useState<string | null>(null)
  const [reference, setReference] = useState("")
  const pages = useCursorPages()
  const [creating, setCreating] = useState(false)
  const query = new URLSearchParams({ limit: String(PAGE), ...(pages.cursor ? { cursor: pages.cursor } : {}), ...(status ? { status } : {}), ...(reference.trim() ? { reference: reference.trim() } : {}) })
  const list = useLoad(() => api<{ payouts: Payout[]; next_cursor: string | null }>(`/admin/pgs/payouts?${query}`), [query.toString()])

  return (
    <div className="flex flex-col gap-y-3">
      <GatewayHealthBanner />
      <Panel label="Payouts">
        <div className="flex items-center justify-between px-6 py-4">
          <Heading level="h1">Payouts</Heading>
          <Button variant="secondary" onClick={() => setCreating(true)} disabled={creating}>
            Create payout
          </Button>
        </div>
        {creating ? (
          <PayoutForm
            onCancel={() => setCreating(false)}
            onCreated={async () => {
              setCreating(false)
              await list.reload()
            }}
          />
        ) : null}
        <div className="flex flex-wrap items-end gap-4 px-6 py-4">
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="pgs-payouts-status" size="small">Status</Label>
            <Choice id="pgs-payouts-status" label="Status" value={status} options={STATUSES} names={Object.fromEntries(STATUSES.map((s) => [s, gatewayStatusWords(s)]))} none="All statuses" onChange={(s) => { setStatus(s); pages.reset() }} />
          </div>
          <div className="flex flex-col gap-y-1">
            <Label htmlFor="pgs-payouts-reference" size="small">Reference</Label>
            <Input id="pgs-payouts-reference" type="search" value={reference} onChange={(e) => { setReference(e.target.value); pages.reset() }} />
          </div>
        </div>
        {list.error ? <Text className="px-6 py-4 text-ui-fg-error">{list.error.message}</Text> : null}
        {/* Scrolls on its own at phone widths, so the page does not scroll sideways. */}
        <div className="overflow-x-auto">
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Reference</Table.HeaderCell>
              <Table.HeaderCell>Status</Table.HeaderCell>
              <Table.HeaderCell>To</Table.HeaderCell>
              <Table.HeaderCell>Amount</Table.HeaderCell>
              <Table.HeaderCell>Created</Table.HeaderCell>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(list.data?.payouts ?? []).map((p) => (
              <Table.Row key={p.id} data-testid="pgs-payout-row">
                <Table.Cell>
                  <Link to={`/pgs-payouts/${p.id}`} className="text-ui-fg-interactive">{p.reference}</Link>
                </Table.Cell>
                <Table.Cell><StatusBadge color={statusColor(p.status)}>{gatewayStatusWords(p.status)}</StatusBadge></Table.Cell>
                <Table.Cell>{p.method === "card" ? `${p.card_brand ?? "Card"} ${p.masked ?? ""}` : `${p.beneficiary_name ?? ""} ${p.masked ?? ""}`}</Table.Cell>
                <Table.Cell>{money(p.amount, p.currency_code)}</Table.Cell>
                <Table.Cell>{dateTime(p.created_at)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
        </div>
        {list.data && list.data.payouts.length === 0 ? (
          <Text size="small" className="px-6 py-4 text-ui-fg-subtle" data-testid="pgs-payouts-empty">
            {status || reference.trim() ? "No payout matches these filters." : "No payouts yet. Create payout sends money to a bank account or a card."}
          </Text>
        ) : null}
        <Pager pages={pages} nextCursor={list.data?.next_cursor} loading={!list.data} noun="Payouts" />
      </Panel>
    </div>
  )
}

export const config = defineRouteConfig({ label: "Payouts" })

export default PayoutsPage
