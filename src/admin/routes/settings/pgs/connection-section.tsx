/** The gateway connection as configured (secrets arrive masked) and a test that fetches a fresh token. */
import { Button, Heading, StatusBadge, Text } from "@medusajs/ui"
import { Panel } from "../../../components/panel"
import { useState } from "react"
import { api } from "../../../lib/api"
import { useAction } from "../../../lib/use-action"
import type { Connection, ConnectionTest } from "../../../lib/types"

const LABELS: Record<string, string> = {
  api_url: "API URL",
  auth_url: "Identity provider URL",
  realm: "Realm",
  environment: "Environment",
  client_id: "Client id",
  client_secret: "Client secret",
  client_key: "Client key (embedded fields)",
  merchant_public_key: "Merchant public key",
  webhook_public_key: "Webhook public key",
  default_terminal_id: "Default terminal",
  default_transaction_type: "Default transaction type",
  payout_terminal_id: "Payout terminal",
  store_url: "Store URL",
  backend_url: "Backend URL",
}

export function ConnectionSection({ connection, pluginVersion }: { connection: Connection; pluginVersion: string }) {
  const [result, setResult] = useState<ConnectionTest | null>(null)
  const testing = useAction()

  const test = () =>
    testing.run(async () => {
      try {
        setResult((await api<{ connection_test: ConnectionTest }>("/admin/pgs/settings/test-connection", { method: "POST" })).connection_test)
      } catch (e) {
        setResult({ ok: false, realm: null, latency_ms: 0, error: (e as Error).message })
      }
    })

  return (
    <Panel label="Gateway connection">
      <div className="flex items-center justify-between px-6 py-4">
        <div>
          <Heading level="h2">Connection</Heading>
          <Text size="small" className="text-ui-fg-subtle">
            Set in medusa-config (PGS_* variables). Secrets are never shown in full.
          </Text>
          <Text size="small" className="text-ui-fg-subtle" data-testid="pgs-plugin-version">
            medusa-payment-pgs {pluginVersion}
          </Text>
        </div>
        <Button variant="secondary" onClick={test} isLoading={testing.busy} disabled={!connection.configured}>
          Test connection
        </Button>
      </div>
      {result ? (
        <div className="px-6 py-3" role="status" data-testid="pgs-connection-result">
          {result.ok ? (
            <StatusBadge color="green">
              Connected to realm {result.realm} in {result.latency_ms} ms
            </StatusBadge>
          ) : (
            <Text size="small" className="text-ui-fg-error">
              Connection failed{result.realm ? ` (realm ${result.realm})` : ""}: {result.error}
            </Text>
          )}
        </div>
      ) : null}
      {connection.configured ? (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 px-6 py-4 md:grid-cols-2">
          {Object.entries(connection.settings).map(([key, value]) => (
            <div key={key} className="flex justify-between gap-x-4">
              <dt className="txt-small text-ui-fg-subtle">{LABELS[key] ?? key}</dt>
              <dd className="txt-small break-all text-right">{value ?? "—"}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <Text size="small" className="whitespace-pre-wrap px-6 py-4 text-ui-fg-error">
          {connection.problem}
        </Text>
      )}
    </Panel>
  )
}
