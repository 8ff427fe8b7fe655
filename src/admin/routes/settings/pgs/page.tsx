/** Settings → Payment Gateway: the PGS connection, the terminal settings and the card-testing switch. */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { Text } from "@medusajs/ui"
import { api } from "../../../lib/api"
import { useLoad } from "../../../lib/use-load"
import type { Catalog, Connection } from "../../../lib/types"
import { ConnectionSection } from "./connection-section"
import { TerminalsSection } from "./terminals-section"
import { CardTestingSection } from "./card-testing-section"
import { GatewayHealthBanner } from "../../../components/gateway-health-banner"

const PaymentGatewaySettings = () => {
  const { data, error } = useLoad(() => api<{ connection: Connection; catalog: Catalog; plugin_version: string }>("/admin/pgs/settings/connection"), [])
  if (error) return <Text className="text-ui-fg-error">{error.message}</Text>
  if (!data) return <Text>Loading…</Text>
  return (
    <div className="flex flex-col gap-y-3">
      <GatewayHealthBanner />
      <ConnectionSection connection={data.connection} pluginVersion={data.plugin_version} />
      <TerminalsSection catalog={data.catalog} />
      <CardTestingSection />
    </div>
  )
}

export const config = defineRouteConfig({ label: "Payment Gateway" })

export default PaymentGatewaySettings
