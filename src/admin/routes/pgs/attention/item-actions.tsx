/** The buttons of one "Needs attention" item: each calls its route, tells the result in a toast, then the list reloads. */
import { Button, toast, usePrompt } from "@medusajs/ui"
import { api, ApiError } from "../../../lib/api"
import { useAction } from "../../../lib/use-action"
import { outcomeWords } from "../../../lib/words"
import type { AttentionAction, AttentionItem } from "../../../lib/types"

type Reread = { transaction_id: string; result: string; gateway_status: string | null; sentence: string | null }
type Processed = { id: string; previous_outcome: string | null; outcome: string | null; error: string | null }

const LABELS: Record<AttentionAction, string> = {
  reread: "Re-read from gateway",
  process_again: "Process again",
  remove_unconfirmed: "Remove from the order",
  resolve: "Mark as handled",
}

/** Runs one action; answers the sentence for the toast. */
async function run(item: AttentionItem, action: AttentionAction): Promise<string> {
  switch (action) {
    case "reread": {
      const r = await api<Reread>("/admin/pgs/attention/reread", { method: "POST", body: { transaction_id: item.transaction_id } })
      return r.sentence ?? `The gateway says ${r.gateway_status ?? "nothing new"}.`
    }
    case "process_again": {
      const r = await api<Processed>(`/admin/pgs/events/${item.id}/process`, { method: "POST" })
      return r.error ? `Processed again, and it failed: ${r.error}` : `Processed again: ${outcomeWords(r.outcome) ?? "no result yet"}.`
    }
    case "remove_unconfirmed":
      await api(`/admin/pgs/attention/${item.id}/remove`, { method: "POST" })
      return "Removed from the order. If the gateway's message for it arrives after all, it is recorded again."
    case "resolve":
      await api(`/admin/pgs/attention/${item.id}/resolve`, { method: "POST" })
      return "Marked as handled."
  }
}

export function ItemActions({ item, onDone }: { item: AttentionItem; onDone(): Promise<void> }) {
  const busy = useAction()
  const prompt = usePrompt()
  const press = async (action: AttentionAction) => {
    // Removing changes the order's money: asked once more, in the words of what it does.
    if (action === "remove_unconfirmed") {
      const ok = await prompt({
        title: "Remove it from the order?",
        description: "Only when the gateway's dashboard does not show it: Medusa then no longer counts this money on the order.",
        confirmText: "Remove",
        cancelText: "Cancel",
      })
      if (!ok) return
    }
    await busy.run(async () => {
      try {
        toast.success(LABELS[action], { description: await run(item, action) })
      } catch (e) {
        toast.error(LABELS[action], { description: ApiError.from(e).message })
      }
      await onDone()
    })
  }
  if (!item.actions.length) return null
  return (
    <div className="flex flex-wrap gap-2">
      {item.actions.map((action) => (
        <Button key={action} size="small" variant={action === "resolve" ? "transparent" : "secondary"} disabled={busy.busy} onClick={() => void press(action)}>
          {LABELS[action]}
        </Button>
      ))}
    </div>
  )
}
