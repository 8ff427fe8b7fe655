/**
 * What the order still owes (an order edit, exchange or claim made it owe more) and how the shop gets it: a pay
 * link to send the customer (the gateway's hosted page, no storefront page needed), copied with one click, or a
 * charge to a card the customer saved with consent to later charges by the shop. A link expires (option
 * payLinkValidDays); "New link" issues another. A charge the bank refuses, or wants the customer for, is
 * explained, and the link offered instead.
 */
import { Button, Text, Textarea, toast } from "@medusajs/ui"
import { useState } from "react"
import { api, ApiError } from "../lib/api"
import { dateTime, money } from "../lib/format"
import { useAction } from "../lib/use-action"
import type { ChargeableCard, ChargeResult, IssuedPayLink, OwedCollection } from "../lib/types"

async function copy(url: string) {
  try {
    await navigator.clipboard.writeText(url)
    toast.success("Pay link copied")
  } catch {
    toast.error("Could not copy: select the link and copy it by hand")
  }
}

/** The gateway requires browser data on every card payment; the customer is absent, so the dashboard's own goes. */
function browserInfo() {
  return {
    user_agent: navigator.userAgent,
    accept_header: "text/html,application/xhtml+xml",
    java_enabled: false,
    color_depth: window.screen.colorDepth,
    screen_height: window.screen.height,
    screen_width: window.screen.width,
    time_zone_offset: new Date().getTimezoneOffset(),
    language: navigator.language || "en-US",
  }
}

const newKey = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 14)}-${Math.random().toString(36).slice(2, 14)}`

const cardName = (c: ChargeableCard) => `${c.brand ?? "Card"} •••• ${c.last_4 ?? "????"}`

function ChargeCard({ orderId, owed, card, onPaid, onRefused }: { orderId: string; owed: OwedCollection; card: ChargeableCard; onPaid: () => void; onRefused: (message: string) => void }) {
  const charging = useAction()
  // One key per click; kept after a lost answer so "Charge" again retries that click (never a second charge).
  const [key, setKey] = useState<string | null>(null)
  const charge = () =>
    charging.run(async () => {
      const clickKey = key ?? newKey()
      setKey(clickKey)
      try {
        const result = await api<ChargeResult>(`/admin/pgs/orders/${orderId}/charge-saved-card`, {
          method: "POST",
          body: { payment_collection_id: owed.payment_collection_id, saved_card_id: card.id, idempotency_key: clickKey, browser_info: browserInfo() },
        })
        setKey(null)
        if (result.outcome === "paid" || result.outcome === "already_paid") {
          toast.success(result.message)
          onPaid()
        } else onRefused(result.message)
      } catch (e) {
        const error = ApiError.from(e)
        if (error.status >= 400 && error.status < 500) setKey(null)
        onRefused(error.message)
      }
    })
  return (
    <Button size="small" variant="secondary" onClick={charge} isLoading={charging.busy}>
      Charge saved card {cardName(card)}
    </Button>
  )
}

function OwedRow({ orderId, owed, validDays, cards, onPaid }: { orderId: string; owed: OwedCollection; validDays: number; cards: ChargeableCard[]; onPaid: () => void }) {
  const [link, setLink] = useState<IssuedPayLink | null>(null)
  const [refusal, setRefusal] = useState<string | null>(null)
  const issuing = useAction()
  const issue = () =>
    issuing.run(async () => {
      try {
        setLink(await api<IssuedPayLink>(`/admin/pgs/orders/${orderId}/pay-link`, { method: "POST", body: { payment_collection_id: owed.payment_collection_id } }))
      } catch (e) {
        toast.error((e as Error).message)
      }
    })
  return (
    <div className="flex flex-col gap-y-2" data-testid="pgs-owed">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Text size="small">
          The customer owes <span className="font-medium">{money(owed.amount, owed.currency_code)}</span>
        </Text>
        <div className="flex flex-wrap gap-2">
          {cards.map((card) => (
            <ChargeCard key={card.id} orderId={orderId} owed={owed} card={card} onPaid={onPaid} onRefused={setRefusal} />
          ))}
          <Button size="small" variant="secondary" onClick={issue} isLoading={issuing.busy}>
            {link ? "New link" : "Create pay link"}
          </Button>
        </div>
      </div>
      {refusal ? (
        <Text size="small" className="text-ui-fg-error" role="alert" data-testid="pgs-charge-refusal">
          {refusal}
        </Text>
      ) : null}
      {link ? (
        <div className="flex flex-col gap-y-1" data-testid="pgs-pay-link">
          <div className="flex items-center gap-x-2">
            {/* The whole link is visible (it is what gets sent): it wraps instead of being cut at the field's width. */}
            <div className="min-w-0 flex-1">
              <Textarea readOnly rows={2} value={link.url} aria-label="Pay link" onFocus={(e) => e.currentTarget.select()} className="w-full resize-none break-all font-mono" />
            </div>
            <Button size="small" variant="secondary" onClick={() => copy(link.url)}>
              Copy
            </Button>
          </div>
          <Text size="xsmall" className="text-ui-fg-subtle">
            Send it to the customer: it opens the gateway's payment page for exactly this amount. Valid until {dateTime(link.expires_at)}.
          </Text>
        </div>
      ) : (
        <Text size="xsmall" className="text-ui-fg-subtle">A pay link opens the gateway's payment page for this amount; it stays valid {validDays} days.</Text>
      )}
    </div>
  )
}

export function OwedPayments({ orderId, owed, validDays, cards, onPaid }: { orderId: string; owed: OwedCollection[]; validDays: number; cards: ChargeableCard[]; onPaid: () => void }) {
  if (!owed.length) return null
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" role="region" aria-label="Still to pay">
      {owed.map((o) => (
        <OwedRow key={o.payment_collection_id} orderId={orderId} owed={o} validDays={validDays} cards={cards} onPaid={onPaid} />
      ))}
    </div>
  )
}
