/**
 * The sandbox's state file, `DIR/sandbox-state.json`: written whole to a temporary file, flushed to disk, then
 * renamed over the old one, so a kill at any moment leaves the old file or the new one, never half of one. A file
 * that is not JSON, not ours or of a newer format stops the start with its name, and is never overwritten.
 */
import fs from "node:fs"
import path from "node:path"
import { z } from "zod"
import { replaceFile } from "../core/replace-file"
import { STATE_FORMAT, STATE_FORMAT_VERSION, type SandboxSnapshot } from "./snapshot"

export const STATE_FILE = "sandbox-state.json"

const records = z.array(z.looseObject({ id: z.string() }))
const skeleton = z.looseObject({
  format: z.literal(STATE_FORMAT),
  version: z.int().min(1),
  store: z.looseObject({
    transactions: records,
    sessions: records,
    customers: records,
    storedCards: records,
    hostedPages: records,
    ledger: z.array(z.looseObject({ seq: z.int() })),
  }),
  webhooks: z.object({ endpoints: z.record(z.string(), z.array(z.string())), deliveries: records }),
  merchants: z.array(z.looseObject({ merchant_id: z.string(), active: z.boolean(), terminals: z.array(z.looseObject({ terminal_id: z.string() })) })),
  revoked_before: z.number(),
  card_flows: z.object({ plain_cards: z.record(z.string(), z.unknown()), three_ds_index: z.record(z.string(), z.string()), payment_data_secret: z.string() }),
  session_simulator_metadata: z.record(z.string(), z.record(z.string(), z.unknown())),
  canceled_hosted_pages: z.array(z.string()),
})

const refuse = (file: string, why: string) =>
  new Error(`--state-dir: ${file} ${why}. The sandbox did not start and left the file as it is: restore it, or move it away to start with an empty gateway.`)

/** The saved state, or null when DIR has none yet. */
export function readStateFile(dir: string): SandboxSnapshot | null {
  const file = path.join(path.resolve(dir), STATE_FILE)
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null
    throw refuse(file, `could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw refuse(file, `is not valid JSON (${(error as Error).message}): it is damaged`)
  }
  const head = parsed as { format?: unknown; version?: unknown } | null
  if (head?.format !== STATE_FORMAT) throw refuse(file, "is not a sandbox state file")
  if (typeof head.version === "number" && head.version > STATE_FORMAT_VERSION)
    throw refuse(file, `was written by a newer sandbox (state format ${head.version}; this one reads format ${STATE_FORMAT_VERSION})`)
  const checked = skeleton.safeParse(parsed)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw refuse(file, `is damaged: ${issue.path.join(".") || "the file"} ${issue.message}`)
  }
  return parsed as SandboxSnapshot
}

/** Replace the state file in one step (temporary file, fsync, rename). */
export function writeStateFile(dir: string, text: string): void {
  fs.mkdirSync(dir, { recursive: true })
  replaceFile(path.join(dir, STATE_FILE), text)
}
