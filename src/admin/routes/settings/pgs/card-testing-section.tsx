/**
 * The card-testing guard as the shop admin sees it: its limits (set in medusa-config, PGS_CARD_TESTING_*) and the
 * switch for a store under attack, which keeps card payments for logged-in customers only for a number of hours.
 */
import { Button, Heading, Input, Label, StatusBadge, Text } from "@medusajs/ui"
import { useState } from "react"
import { Panel } from "../../../components/panel"
import { api } from "../../../lib/api"
import { dateTime } from "../../../lib/format"
import { useLoad } from "../../../lib/use-load"
import { useSubmit } from "../../../lib/use-action"
import type { CardTestingView } from "../../../lib/types"

export function CardTestingSection() {
  const loaded = useLoad(() => api<{ card_testing: CardTestingView }>("/admin/pgs/settings/card-testing"), [])
  const [view, setView] = useState<CardTestingView | null>(null)
  const [hours, setHours] = useState("4")
  const sending = useSubmit()
  const shown = view ?? loaded.data?.card_testing ?? null
  if (loaded.error) return <Text className="text-ui-fg-error">{loaded.error.message}</Text>
  if (!shown) return null

  const send = (body: Record<string, unknown>) =>
    sending.submit(async () => {
      setView((await api<{ card_testing: CardTestingView }>("/admin/pgs/settings/card-testing", { method: "POST", body })).card_testing)
    })
  const t = shown.thresholds
  return (
    <Panel label="Card testing">
      <div className="flex flex-col gap-y-3 px-6 py-4" data-testid="pgs-card-testing">
        <Heading level="h2">Card testing</Heading>
        <Text size="small" className="text-ui-fg-subtle">
          {t.enabled
            ? `A client is refused for ${t.blockMinutes} minutes once the gateway declined ${t.declinesPerAddress} of its payments from one address, or ${t.declinesPerCart} for one cart or email, within ${t.declineWindowMinutes} minutes, or once it tried too often (set in medusa-config, PGS_CARD_TESTING_*).`
            : "The guard is off (PGS_CARD_TESTING_GUARD=false): nothing is counted or refused."}
        </Text>
        {shown.lockdown ? (
          <div className="flex items-center justify-between gap-x-3">
            <StatusBadge color="orange">
              Cards for logged-in customers only until {dateTime(shown.lockdown.until)}
            </StatusBadge>
            <Button variant="secondary" isLoading={sending.busy} onClick={() => send({ mode: "off" })}>
              Open cards to everyone again
            </Button>
          </div>
        ) : (
          <div className="flex items-end gap-x-3">
            <div className="flex flex-col gap-y-1">
              <Label htmlFor="pgs-lockdown-hours">For how many hours</Label>
              <Input id="pgs-lockdown-hours" type="number" min={1} max={168} value={hours} onChange={(e) => setHours(e.target.value)} aria-invalid={!!sending.error?.field("hours")} />
            </div>
            <Button variant="secondary" isLoading={sending.busy} onClick={() => send({ mode: "logged_in_only", hours: Number(hours) })}>
              Cards for logged-in customers only
            </Button>
          </div>
        )}
        <Text size="small" className="text-ui-fg-subtle">
          While this is on, a shopper who is not logged in cannot start a card payment and is asked to sign in or choose another method. The
          gateway offers no way to ask every card for a 3-D Secure challenge.
        </Text>
        {sending.error ? (
          <Text size="small" className="text-ui-fg-error" role="alert">
            {sending.error.field("hours") ? `Hours ${sending.error.field("hours")}.` : sending.error.message}
          </Text>
        ) : null}
      </div>
    </Panel>
  )
}
