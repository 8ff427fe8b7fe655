/**
 * The gateway's side of the drills: its ledger (every operation that reached it, replays marked), its webhook
 * deliveries, and webhooks signed with its real key and posted the way it posts them.
 */
import { request } from "undici"
import { waitFor, type SandboxHarness } from "../../support/sandbox"
import type { LedgerEntry } from "../../http/support/checkout"

export type { LedgerEntry }

export async function ledger(sandbox: SandboxHarness): Promise<LedgerEntry[]> {
  return (await sandbox.control("GET", "/_sandbox/ledger")).body.entries
}

/** Operations that reached the gateway for real (idempotent repeats left out). */
export const firstTimes = (entries: LedgerEntry[]) => entries.filter((e) => !e.replay)

/** The body the gateway sent (or is sending) for this subject and event. */
export async function deliveredBody(sandbox: SandboxHarness, subjectId: string, event?: string): Promise<string> {
  const delivery = await waitFor(
    async () => {
      const res = await sandbox.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${encodeURIComponent(subjectId)}`)
      const list = (res.body?.deliveries ?? res.body ?? []) as any[]
      return list.find((d) => !event || d.event === event)
    },
    { timeoutMs: 30_000, what: `the gateway's webhook for ${subjectId}` },
  )
  return delivery.body
}

export async function signed(sandbox: SandboxHarness, body: string) {
  return { body, authorization: `Bearer ${await sandbox.sandbox.context.webhooks.sign(body)}` }
}

/** POST one signed webhook; answers the status (0 when the connection failed, as for a killed process). */
export async function post(url: string, send: { body: string; authorization: string }): Promise<number> {
  try {
    const res = await request(url, { method: "POST", headers: { "content-type": "application/json", authorization: send.authorization }, body: send.body })
    await res.body.text()
    return res.statusCode
  } catch {
    return 0
  }
}

/** Sends every webhook with `concurrency` in flight; answers each one's status, in order. */
export async function sendAll(sends: Array<{ url: string; body: string; authorization: string }>, concurrency = 25): Promise<number[]> {
  const statuses: number[] = new Array(sends.length)
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < sends.length) {
        const i = next++
        statuses[i] = await post(sends[i]!.url, sends[i]!)
      }
    }),
  )
  return statuses
}
