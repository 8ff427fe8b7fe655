/** The terminal settings: which terminal serves which currencies and regions, and how. */
import { Badge, Button, Heading, Table, Text, toast, usePrompt } from "@medusajs/ui"
import { Panel } from "../../../components/panel"
import { useState } from "react"
import { api } from "../../../lib/api"
import { useLoad } from "../../../lib/use-load"
import type { Catalog, Terminal } from "../../../lib/types"
import { INTEGRATION_NAMES, TerminalForm } from "./terminal-form"

type Region = { id: string; name: string; currency_code: string }

export function TerminalsSection({ catalog }: { catalog: Catalog }) {
  const terminals = useLoad(() => api<{ terminals: Terminal[] }>("/admin/pgs/settings/terminals").then((r) => r.terminals), [])
  const regions = useLoad(
    () => api<{ regions: Region[] }>("/admin/regions?fields=id,name,currency_code&limit=100").then((r) => r.regions).catch(() => [] as Region[]),
    [],
  )
  const [editing, setEditing] = useState<Terminal | "new" | null>(null)
  const prompt = usePrompt()

  async function remove(t: Terminal) {
    const ok = await prompt({ title: `Delete terminal ${t.terminal_id}?`, description: "New payment sessions stop using it at once.", confirmText: "Delete", cancelText: "Cancel" })
    if (!ok) return
    await api(`/admin/pgs/settings/terminals/${t.id}`, { method: "DELETE" })
    toast.success(`Terminal ${t.terminal_id} deleted`)
    await terminals.reload()
  }

  return (
    <Panel label="Terminals">
      <div className="flex flex-wrap items-center justify-between gap-4 px-6 py-4">
        <div className="min-w-0 flex-1">
          <Heading level="h2">Terminals</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Read at every new payment session: a change applies at once, no restart. Without a matching row the default terminal from medusa-config is used.
          </Text>
        </div>
        <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => setEditing("new")} disabled={editing !== null}>
          Add terminal
        </Button>
      </div>
      {terminals.error ? <Text className="px-6 py-4 text-ui-fg-error">{terminals.error.message}</Text> : null}
      {/* Scrolls on its own at phone widths, so the page does not scroll sideways. */}
      <div className="overflow-x-auto">
      <Table>
        <Table.Header>
          <Table.Row>
            <Table.HeaderCell>Terminal</Table.HeaderCell>
            <Table.HeaderCell>Currencies</Table.HeaderCell>
            <Table.HeaderCell>Type</Table.HeaderCell>
            <Table.HeaderCell>Integration</Table.HeaderCell>
            <Table.HeaderCell>Locale</Table.HeaderCell>
            <Table.HeaderCell>Methods</Table.HeaderCell>
            <Table.HeaderCell />
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {(terminals.data ?? []).map((t) => (
            <Table.Row key={t.id} data-testid={`pgs-terminal-${t.terminal_id}`}>
              <Table.Cell>
                {t.terminal_id} {t.label ? <span className="text-ui-fg-subtle">· {t.label}</span> : null} {t.is_default ? <Badge size="2xsmall">default</Badge> : null}
              </Table.Cell>
              <Table.Cell>{t.currency_codes.length ? t.currency_codes.join(", ").toUpperCase() : "—"}</Table.Cell>
              <Table.Cell>{t.transaction_type}</Table.Cell>
              <Table.Cell>{INTEGRATION_NAMES[t.integration_type] ?? t.integration_type}</Table.Cell>
              <Table.Cell>{t.locale ?? "—"}</Table.Cell>
              <Table.Cell>{!t.enabled_methods ? "all" : t.enabled_methods.length ? t.enabled_methods.map((m) => catalog.method_labels[m] ?? m).join(", ") : "none: shoppers cannot pay"}</Table.Cell>
              <Table.Cell className="flex justify-end gap-x-2">
                <Button size="small" variant="transparent" onClick={() => setEditing(t)} aria-label={`Edit terminal ${t.terminal_id}`}>
                  Edit
                </Button>
                <Button size="small" variant="transparent" onClick={() => void remove(t)} aria-label={`Delete terminal ${t.terminal_id}`}>
                  Delete
                </Button>
              </Table.Cell>
            </Table.Row>
          ))}
          {terminals.data && !terminals.data.length ? (
            <Table.Row>
              <Table.Cell>No terminal settings yet.</Table.Cell>
            </Table.Row>
          ) : null}
        </Table.Body>
      </Table>
      </div>
      {editing ? (
        <TerminalForm
          key={editing === "new" ? "new" : editing.id}
          terminal={editing === "new" ? null : editing}
          catalog={catalog}
          regions={regions.data ?? []}
          onCancel={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null)
            await terminals.reload()
          }}
        />
      ) : null}
    </Panel>
  )
}
