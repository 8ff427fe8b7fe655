/** Customer page: the cards the gateway saved for this customer, with delete (at the gateway, then here). */
import { defineWidgetConfig } from "@medusajs/admin-sdk"
import type { AdminCustomer, DetailWidgetProps } from "@medusajs/framework/types"
import { Button, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { Panel } from "../components/panel"
import { api } from "../lib/api"
import { useLoad } from "../lib/use-load"
import type { SavedCard } from "../lib/types"

const expiry = (c: SavedCard) => (c.exp_month && c.exp_year ? `${String(c.exp_month).padStart(2, "0")}/${c.exp_year}` : "—")

const CustomerSavedCardsWidget = ({ data: customer }: DetailWidgetProps<AdminCustomer>) => {
  const base = `/admin/pgs/customers/${customer.id}/saved-cards`
  const cards = useLoad(() => api<{ saved_cards: SavedCard[] }>(base).then((r) => r.saved_cards), [base])
  const prompt = usePrompt()

  async function remove(card: SavedCard) {
    const label = `${card.brand ?? "Card"} ${card.masked ?? ""}`.trim()
    const ok = await prompt({ title: `Delete ${label}?`, description: "The gateway deletes the card; it cannot pay again. This cannot be undone.", confirmText: "Delete", cancelText: "Cancel" })
    if (!ok) return
    try {
      await api(`${base}/${card.id}`, { method: "DELETE" })
      toast.success(`${label} deleted`)
    } catch (e) {
      toast.error((e as Error).message)
    }
    await cards.reload()
  }

  return (
    <Panel label="Saved cards">
      <div className="px-6 py-4">
        <Heading level="h2">Saved cards</Heading>
      </div>
      {cards.error ? <Text className="px-6 py-4 text-ui-fg-error">{cards.error.message}</Text> : null}
      {cards.data && !cards.data.length ? <Text size="small" className="px-6 py-4 text-ui-fg-subtle">No saved cards.</Text> : null}
      {cards.data?.length ? (
        <Table>
          <Table.Header>
            <Table.Row>
              <Table.HeaderCell>Brand</Table.HeaderCell>
              <Table.HeaderCell>Card</Table.HeaderCell>
              <Table.HeaderCell>Expiry</Table.HeaderCell>
              <Table.HeaderCell />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cards.data.map((c) => (
              <Table.Row key={c.id} data-testid="pgs-saved-card">
                <Table.Cell>{c.brand ?? "—"}</Table.Cell>
                <Table.Cell>{c.masked ?? (c.last_4 ? `•••• ${c.last_4}` : "—")}</Table.Cell>
                <Table.Cell>{expiry(c)}</Table.Cell>
                <Table.Cell className="text-right">
                  <Button size="small" variant="transparent" onClick={() => void remove(c)} aria-label={`Delete card ${c.masked ?? c.last_4 ?? c.id}`}>
                    Delete
                  </Button>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table>
      ) : null}
    </Panel>
  )
}

export const config = defineWidgetConfig({ zone: "customer.details.after", id: "pgs-customer-saved-cards" })

export default CustomerSavedCardsWidget
