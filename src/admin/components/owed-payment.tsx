/**
 * What the order still owes (an order edit, exchange or claim made it owe more) and how the shop gets it: a pay
 * link to send the customer (the gateway's hosted page, no storefront page needed), copied with one click.
 * A link expires (option payLinkValidDays); "New link" issues another.
 */
import { Button, Input, Text, toast } from "@medusajs/ui"
import { useState } from "react"
import { api } from "../lib/api"
import { dateTime, money } from "../lib/format"
import { useAction } from "../lib/use-action"
import type { IssuedPayLink, OwedCollection } from "../lib/types"

async function copy(url: string) {
  try {
    await navigator.clipboard.writeText(url)
    toast.success("Pay link copied")
  } catch {
    toast.error("Could not copy: select the link and copy it by hand")
  }
}

function OwedRow({ orderId, owed, validDays }: { orderId: string; owed: OwedCollection; validDays: number }) {
  const [link, setLink] = useState<IssuedPayLink | null>(null)
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
        <Button size="small" variant="secondary" onClick={issue} isLoading={issuing.busy}>
          {link ? "New link" : "Create pay link"}
        </Button>
      </div>
      {link ? (
        <div className="flex flex-col gap-y-1" data-testid="pgs-pay-link">
          <div className="flex items-center gap-x-2">
            <Input size="small" readOnly value={link.url} aria-label="Pay link" onFocus={(e) => e.currentTarget.select()} className="font-mono" />
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

export function OwedPayments({ orderId, owed, validDays }: { orderId: string; owed: OwedCollection[]; validDays: number }) {
  if (!owed.length) return null
  return (
    <div className="flex flex-col gap-y-3 px-6 py-4" aria-label="Still to pay">
      {owed.map((o) => (
        <OwedRow key={o.payment_collection_id} orderId={orderId} owed={o} validDays={validDays} />
      ))}
    </div>
  )
}
