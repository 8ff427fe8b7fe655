/**
 * The Payment gateway pages' banner: shown only when something is wrong that breaks every payment (the gateway
 * refuses the store's credentials, or cannot be reached) or every webhook (their signature does not match
 * PGS_WEBHOOK_PUBLIC_KEY), or while the card-testing guard refuses clients. Says what to change, naming the variable.
 */
import { Alert } from "@medusajs/ui"
import { Link } from "react-router-dom"
import { api } from "../lib/api"
import { dateTime } from "../lib/format"
import { useLoad } from "../lib/use-load"
import type { GatewayHealth } from "../lib/types"

const HEADINGS: Record<GatewayHealth["credentials"]["state"], string> = {
  ok: "",
  refused: "The gateway refuses this store's credentials",
  wrong_url: "The gateway's identity provider was not found",
  unreachable: "The gateway cannot be reached",
  not_configured: "The gateway connection is not configured",
}

export function GatewayHealthBanner() {
  const health = useLoad(() => api<GatewayHealth>("/admin/pgs/health"), [])
  const h = health.data
  if (!h) return null
  const { credentials, webhooks_refused: refused, card_testing: cardTesting } = h
  return (
    <>
      {credentials.state !== "ok" ? (
        <Alert variant="error" data-testid="pgs-health-credentials" className="mb-3">
          <strong>{HEADINGS[credentials.state]}.</strong> {credentials.message}. Checked at {dateTime(credentials.checked_at)}; Settings → Test
          connection checks again.
        </Alert>
      ) : null}
      {refused ? (
        <Alert variant="error" data-testid="pgs-health-webhooks" className="mb-3">
          <strong>The gateway's webhooks are being refused.</strong> Their signature does not match PGS_WEBHOOK_PUBLIC_KEY: {refused.count}{" "}
          {refused.count === 1 ? "delivery" : "deliveries"} refused, the last at {dateTime(refused.last_at)}. Orders paid meanwhile wait for
          their payment. See <Link to="/pgs/attention" className="text-ui-fg-interactive">Needs attention</Link>.
        </Alert>
      ) : null}
      {cardTesting ? (
        <Alert variant="warning" data-testid="pgs-health-card-testing" className="mb-3">
          <strong>Card testing suspected.</strong> Clients blocked {cardTesting.refused} {cardTesting.refused === 1 ? "time" : "times"}
          since {dateTime(cardTesting.since)}, the last at {dateTime(cardTesting.last_at)}.{" "}
          {cardTesting.lockdown
            ? `Cards are for logged-in customers only until ${dateTime(cardTesting.lockdown.until)}.`
            : "Settings → Payment Gateway can keep cards for logged-in customers only for a few hours."}{" "}
          See <Link to="/pgs/attention" className="text-ui-fg-interactive">Needs attention</Link>.
        </Alert>
      ) : null}
    </>
  )
}
