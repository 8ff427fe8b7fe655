/**
 * Payment gateway → Needs attention: what a person must look at (money without an order, events that failed after
 * their retries, transactions stuck, automatic refunds that failed) first, then the record of what the plugin
 * settled by itself (late payments given back, orders given up, changes found by reconciliation).
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Badge, Heading, Table, Text } from "@medusajs/ui"
import { Panel } from "../../../components/panel"
import { useState } from "react"
import { Link } from "react-router-dom"
import { Pager, useCursorPages } from "../../../components/pager"
import { Choice } from "../../../components/choice"
import { api } from "../../../lib/api"
import { dateTime, money } from "../../../lib/format"
import { useLoad } from "../../../lib/use-load"
import type { AttentionItem, AttentionList } from "../../../lib/types"
import { ItemActions } from "./item-actions"
import { GatewayHealthBanner } from "../../../components/gateway-health-banner"

const PAGE = 20
// "all" by default: the record of what was settled automatically (refunds made, orders given up) is what the
// shop admin checks too; open items come first either way.
const SHOW = { all: "Open, then settled automatically", open: "Open only" }

// Below md the Order, Amount and When columns fold into the item's own cell, so a phone shows the whole item, its
// buttons included, without scrolling sideways.
const WIDE = "hidden whitespace-nowrap py-3 md:table-cell"

function OrderLink({ item }: { item: AttentionItem }) {
  return item.order_id ? <Link to={`/orders/${item.order_id}`} className="text-ui-fg-interactive">{item.order_display_id === null ? "Order" : `Order #${item.order_display_id}`}</Link> : <Text size="small" className="text-ui-fg-muted">No order</Text>
}

const amountOf = (item: AttentionItem) => (item.amount && item.currency_code ? money(item.amount, item.currency_code) : null)

function ItemRow({ item, reload }: { item: AttentionItem; reload(): Promise<void> }) {
  const amount = amountOf(item)
  return (
    <Table.Row data-testid="pgs-attention-item" data-kind={item.kind} className="[&_td]:align-top">
      <Table.Cell className="py-3">
        <div className="flex items-center gap-x-2">
          {item.needs_person ? <Badge size="2xsmall" color="red">Open</Badge> : <Badge size="2xsmall" color="grey">Settled</Badge>}
          <Text size="small" weight="plus" className="whitespace-normal">{item.title}</Text>
        </div>
        <Text size="small" className="mt-1 max-w-[560px] whitespace-normal text-ui-fg-subtle">{item.sentence}</Text>
        {item.transaction_id ? <Text size="xsmall" className="mt-1 break-all font-mono text-ui-fg-muted">Transaction {item.transaction_id}</Text> : null}
        <div className="mt-1 flex flex-wrap items-center gap-x-2 text-ui-fg-subtle md:hidden" data-testid="pgs-attention-item-narrow">
          <OrderLink item={item} />
          {amount ? <Text size="small">· {amount}</Text> : null}
          <Text size="small">· {dateTime(item.at)}</Text>
        </div>
        <div className="mt-2 empty:hidden">
          <ItemActions item={item} onDone={reload} />
        </div>
      </Table.Cell>
      <Table.Cell className={WIDE}>
        <OrderLink item={item} />
      </Table.Cell>
      <Table.Cell className={WIDE}>{amount ?? "—"}</Table.Cell>
      <Table.Cell className={WIDE}>{dateTime(item.at)}</Table.Cell>
    </Table.Row>
  )
}

const NeedsAttentionPage = () => {
  const [show, setShow] = useState<keyof typeof SHOW>("all")
  const pages = useCursorPages()
  const cursor = pages.cursor ? `&cursor=${encodeURIComponent(pages.cursor)}` : ""
  const list = useLoad(() => api<AttentionList>(`/admin/pgs/attention?show=${show}&limit=${PAGE}${cursor}`), [show, cursor])
  const items = list.data?.items ?? []

  return (
    <div className="flex flex-col">
      <GatewayHealthBanner />
      <Panel label="Needs attention">
        <div className="flex flex-wrap items-center justify-between gap-4 px-6 py-4">
          <div className="flex items-center gap-x-2">
            <Heading level="h1">Needs attention</Heading>
            {list.data ? (
              <Badge color={list.data.needs_person ? "red" : "grey"} data-testid="pgs-attention-open-count" aria-label={`${list.data.needs_person} open`}>
                {list.data.needs_person}
              </Badge>
            ) : null}
          </div>
          <div className="w-full md:w-[320px]">
            <Choice id="pgs-attention-show" label="Show" value={show} options={Object.keys(SHOW)} names={SHOW} onChange={(v) => { setShow((v as keyof typeof SHOW) ?? "all"); pages.reset() }} />
          </div>
        </div>
        {list.error ? <Text className="px-6 py-4 text-ui-fg-error">{list.error.message}</Text> : null}
        {list.data && !list.data.needs_person ? (
          <Text className="px-6 py-6 text-center text-ui-fg-subtle" data-testid="pgs-attention-empty">
            Nothing needs attention.{items.length ? " Below: what the plugin settled by itself." : ""}
          </Text>
        ) : null}
        {items.length ? (
          <Table>
            <Table.Header>
              <Table.Row>
                <Table.HeaderCell>What</Table.HeaderCell>
                <Table.HeaderCell className="hidden md:table-cell">Order</Table.HeaderCell>
                <Table.HeaderCell className="hidden md:table-cell">Amount</Table.HeaderCell>
                <Table.HeaderCell className="hidden md:table-cell">When</Table.HeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {items.map((item) => <ItemRow key={item.id} item={item} reload={list.reload} />)}
            </Table.Body>
          </Table>
        ) : null}
        <Pager pages={pages} nextCursor={list.data?.next_cursor} loading={!list.data} noun="Items" />
      </Panel>
    </div>
  )
}

export const config = defineRouteConfig({ label: "Needs attention" })

export default NeedsAttentionPage
