/**
 * "Payment gateway" in the sidebar: the parent entry that nests "Needs attention" (the dashboard nests an
 * extension route under the extension route whose path is its parent). It says what is open and leads on.
 */
import { defineRouteConfig } from "@medusajs/admin-sdk"
import { CreditCard } from "@medusajs/icons"
import { Badge, Heading, Text } from "@medusajs/ui"
import { Panel } from "../../components/panel"
import { Link } from "react-router-dom"
import { api } from "../../lib/api"
import { useLoad } from "../../lib/use-load"
import type { AttentionList } from "../../lib/types"
import { GatewayHealthBanner } from "../../components/gateway-health-banner"

function Entry(props: { to: string; title: string; text: string; badge?: number | null }) {
  return (
    <Link to={props.to} className="hover:bg-ui-bg-base-hover flex items-center justify-between gap-x-4 px-6 py-4">
      <div>
        <Text weight="plus">{props.title}</Text>
        <Text size="small" className="text-ui-fg-subtle">{props.text}</Text>
      </div>
      {props.badge !== undefined && props.badge !== null ? <Badge color={props.badge ? "red" : "grey"}>{props.badge}</Badge> : null}
    </Link>
  )
}

const PaymentGatewayPage = () => {
  const open = useLoad(() => api<AttentionList>("/admin/pgs/attention?show=open&limit=1"), [])
  return (
    <div className="flex flex-col">
      <GatewayHealthBanner />
      <Panel label="Payment gateway">
        <div className="px-6 py-4">
          <Heading level="h1">Payment gateway</Heading>
        </div>
        <Entry to="/pgs/attention" title="Needs attention" text="Payments and events a person must look at, and what was settled automatically" badge={open.data?.needs_person ?? null} />
        <Entry to="/pgs-payouts" title="Payouts" text="Money sent to bank accounts and cards" />
        <Entry to="/settings/pgs" title="Settings" text="Connection and terminals" />
      </Panel>
    </div>
  )
}

export const config = defineRouteConfig({ label: "Payment gateway", icon: CreditCard })

export default PaymentGatewayPage
