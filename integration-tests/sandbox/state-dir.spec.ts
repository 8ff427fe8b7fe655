/**
 * --state-dir: a sandbox stopped and started again on the same directory still answers for what it did before
 * (status, capture, refund, saved cards, queued webhooks), refuses a damaged state file in words, and keeps every
 * kind of state it holds (a new one fails the last test until sandbox/state decides about it).
 */
import { spawn } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { startSandbox } from "../../sandbox/server"
import { keysFromDir } from "../../sandbox/core/keys"
import { credentialsFromDir } from "../../sandbox/core/credentials"
import { PERSISTED, NOT_PERSISTED, takeSnapshot } from "../../sandbox/state/snapshot"
import { STATE_FILE } from "../../sandbox/state/state-file"
import { SandboxHarness, startHarness, waitFor } from "../support/sandbox"
import { startWebhookReceiver } from "../support/webhook-receiver"
import { approved, manage, recordOf, statusOf } from "./management-helpers"
import { authorizeCard } from "./cards-support"

const BIN = path.join(__dirname, "../../bin/medusa-payment-pgs.js")
const dirs: string[] = []
const newDir = () => (dirs.push(fs.mkdtempSync(path.join(os.tmpdir(), "pgs-sandbox-state-"))), dirs[dirs.length - 1])
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** A sandbox on `dir` with the same keys and credentials every time, as the CLI's --state-dir gives it. */
const startOn = (dir: string, webhookTimeScale = 0.001) =>
  startHarness({
    stateDir: dir,
    keys: keysFromDir(path.join(dir, "keys")),
    clientId: "state-merchant",
    clientSecret: "state-secret",
    clientKey: "state-key",
    webhookTimeScale,
  })

/** Runs `test` with a sandbox on a fresh state dir and `restart()`, which stops it and starts it again there. */
async function withStateDir(test: (h: SandboxHarness, restart: () => Promise<SandboxHarness>) => Promise<void>, webhookTimeScale?: number) {
  const dir = newDir()
  let h = await startOn(dir, webhookTimeScale)
  const restart = async () => {
    await h.close()
    return (h = await startOn(dir, webhookTimeScale))
  }
  try {
    await test(h, restart)
  } finally {
    await h.close()
  }
}

describe("a sandbox started again on the same --state-dir", () => {
  it("reads, captures and refunds a card payment authorized before the restart, amount for amount", async () => {
    await withStateDir(async (h, restart) => {
      const tx = await approved(h, "AUTHORIZE", 12_345)
      h = await restart()
      expect(await statusOf(h, tx.id)).toMatchObject({ id: tx.id, status: "APPROVED", amount: 12_345 })
      const capture = await manage(h, tx, "CAPTURE", 12_345)
      expect(capture.body).toMatchObject({ transaction_type: "CAPTURE", status: "APPROVED", amount: 12_345 })
      const refund = await manage(h, tx, "REFUND", 2_345)
      expect(refund.body).toMatchObject({ transaction_type: "REFUND", status: "APPROVED", amount: 2_345 })
      // And once more: what was done after the first restart is kept by the second.
      h = await restart()
      expect(await recordOf(h, tx.id)).toMatchObject({ captured_amount: 12_345, refunded_amount: 2_345 })
      const ledger = (await h.control("GET", "/_sandbox/ledger")).body.entries as Array<{ transaction_type: string; amount: number; parent_id: string | null }>
      expect(ledger.filter((e) => e.parent_id === tx.id).map((e) => [e.transaction_type, e.amount])).toEqual([["CAPTURE", 12_345], ["REFUND", 2_345]])
      // A second capture is refused as it would have been without the restart.
      expect((await manage(h, tx, "CAPTURE", 1)).body.status).not.toBe("APPROVED")
    })
  })

  it("voids an authorization made before the restart", async () => {
    await withStateDir(async (h, restart) => {
      const tx = await approved(h, "AUTHORIZE", 5_000)
      h = await restart()
      expect((await manage(h, tx, "VOID", 5_000)).body).toMatchObject({ transaction_type: "VOID", status: "APPROVED" })
    })
  })

  it("charges a card saved before the restart", async () => {
    await withStateDir(async (h, restart) => {
      const saved = await authorizeCard(h, {
        payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved"), month: "7", year: "2031" }),
        tokenization: { save_card_for_future_payments: true },
      })
      const token = saved.body.result.payment_method.token as string
      expect(token).toMatch(/^pm_/)
      h = await restart()
      const charged = await authorizeCard(h, { payment_method: { type: "saved_card", data: { payment_method_id: token, encrypted_cvv: h.encrypt("123") } }, amount: 777 })
      expect(charged.body.result).toMatchObject({ status: "APPROVED", amount: 777, payment_method: { type: "saved_card" } })
    })
  })

  it("finishes after the restart a 3-D Secure challenge started before it, and saves the card it was asked to", async () => {
    await withStateDir(async (h, restart) => {
      const started = await authorizeCard(h, {
        payment_method: h.encryptedCard({ number: h.testCard("form_submit_authenticated"), month: "7", year: "2031" }),
        tokenization: { save_card_for_future_payments: true },
      })
      const challenge = started.body.form_submit
      expect(challenge).toBeTruthy()
      h = await restart()
      // The bank's page is the restarted sandbox's (its port is a new one).
      const url = new URL(challenge.url)
      await h.raw("POST", `${h.url}${url.pathname}${url.search}`, { form: challenge.data })
      const record = await recordOf(h, challenge.transaction_id)
      expect(record).toMatchObject({ status: "APPROVED" })
      expect(record.payment_method.token).toMatch(/^pm_/)
    })
  })

  it("delivers after the restart a webhook queued before it while the store's endpoint was down", async () => {
    let down = true
    const receiver = await startWebhookReceiver(() => (down ? 503 : 200))
    // Retries every few hundred ms at most, so the delivery is still queued when the sandbox stops.
    await withStateDir(async (h, restart) => {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await approved(h, "AUTHORIZE", 4_200)
      await waitFor(() => receiver.received.some((w) => JSON.stringify(w.body).includes(tx.id)), { what: "a first, refused attempt" })
      h = await restart()
      const restartedAt = Date.now()
      down = false
      const delivered = await waitFor(async () => {
        const { deliveries } = (await h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${tx.id}`)).body
        return deliveries.find((d: { state: string }) => d.state === "delivered")
      }, { what: "the queued webhook delivered after the restart", timeoutMs: 20_000 })
      expect(delivered.attempts.length).toBeGreaterThan(1)
      expect(delivered.attempts[0].status).toBe(503)
      const accepted = receiver.received.filter((w) => JSON.stringify(w.body).includes(tx.id) && w.at >= restartedAt)
      expect(accepted.length).toBeGreaterThan(0)
      expect(accepted[0].body.payload).toMatchObject({ id: tx.id, status: "APPROVED", amount: 4_200 })
    }, 0.01).finally(() => receiver.close())
  })
})

describe("a damaged state file", () => {
  it("stops the start with the file's name and leaves the file as it was (a cut-off write)", async () => {
    const dir = newDir()
    const file = path.join(dir, STATE_FILE)
    fs.writeFileSync(file, '{"format":"pgs-sandbox-state","version":1,"store":{"transactions":[{"id":"trx_')
    await expect(startSandbox({ port: 0, stateDir: dir })).rejects.toThrow(`${file} is not valid JSON`)
    expect(fs.readFileSync(file, "utf8")).toContain('"id":"trx_')
  })

  it("refuses a file written by a newer sandbox, on the command line, with words", async () => {
    const dir = newDir()
    const file = path.join(dir, STATE_FILE)
    fs.writeFileSync(file, JSON.stringify({ format: "pgs-sandbox-state", version: 99 }))
    const child = spawn(process.execPath, [BIN, "sandbox", "--port", "0", "--state-dir", dir], { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout!.on("data", (c) => (out += c))
    child.stderr!.on("data", (c) => (out += c))
    const code = await new Promise((r) => child.on("exit", r))
    expect(code).toBe(1)
    expect(out).toContain(`${file} was written by a newer sandbox (state format 99; this one reads format 1)`)
    expect(out).not.toContain("listening")
  }, 30_000)

  it("refuses a file that is JSON of another shape, naming what is wrong", async () => {
    const dir = newDir()
    fs.writeFileSync(path.join(dir, STATE_FILE), JSON.stringify({ format: "pgs-sandbox-state", version: 1, store: {} }))
    await expect(startSandbox({ port: 0, stateDir: dir })).rejects.toThrow(/is damaged: store\.transactions/)
  })
})

describe("the credentials file beside the state", () => {
  it("is replaced whole (a new file renamed over the old, never written in place), readable by its owner only", () => {
    const dir = newDir()
    const file = path.join(dir, "credentials.json")
    const first = credentialsFromDir(dir)
    const before = fs.statSync(file).ino
    const changed = credentialsFromDir(dir, { clientSecret: "given-secret" })
    expect(changed).toEqual({ ...first, clientSecret: "given-secret" })
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(changed)
    // Written in place, a kill mid-write would leave half a file: the old one is kept until the new one is whole.
    expect(fs.statSync(file).ino).not.toBe(before)
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.readdirSync(dir)).toEqual(["credentials.json"])
  })

  it("refuses one that is not JSON (a cut-off write), naming the file, and leaves it as it was", () => {
    const dir = newDir()
    const file = path.join(dir, "credentials.json")
    fs.writeFileSync(file, '{"clientId":"state-merch')
    expect(() => credentialsFromDir(dir)).toThrow(`${file} is not valid JSON`)
    expect(fs.readFileSync(file, "utf8")).toBe('{"clientId":"state-merch')
  })
})

describe("the keys beside the state", () => {
  it("makes each missing key whole (no temporary file left), readable by its owner only", () => {
    const dir = newDir()
    const keys = keysFromDir(dir)
    expect(Object.keys(keys).sort()).toEqual(["idp", "merchant", "webhook"])
    expect(fs.readdirSync(dir).sort()).toEqual(["idp.private.pem", "merchant.private.pem", "webhook.private.pem"])
    expect(fs.statSync(path.join(dir, "merchant.private.pem")).mode & 0o777).toBe(0o600)
    expect(keysFromDir(dir)).toEqual(keys) // kept across starts
  })

  it("refuses a key file that is not a private key (a cut-off write), naming the file, and leaves it as it was", () => {
    const dir = newDir()
    const file = path.join(dir, "merchant.private.pem")
    fs.writeFileSync(file, "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
    expect(() => keysFromDir(dir)).toThrow(`${file} is not a private key in PEM`)
    expect(fs.readFileSync(file, "utf8")).toBe("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
  })
})

describe("what --state-dir keeps", () => {
  const fieldsHoldingState = (object: object) =>
    Object.entries(object)
      .filter(([, v]) => v instanceof Map || v instanceof Set || Array.isArray(v))
      .map(([k]) => k)
      .sort()

  it("every collection of the store, the webhooks and the context is either saved or named as not kept", async () => {
    const h = await startHarness({ stateDir: newDir() })
    try {
      const ctx = h.sandbox.context
      const snapshot = takeSnapshot(ctx)
      expect(Object.keys(snapshot.store).sort()).toEqual([...PERSISTED.store].sort())
      expect(fieldsHoldingState(ctx.store)).toEqual([...PERSISTED.store, ...PERSISTED.storeDerived].sort())
      expect(Object.keys(snapshot.webhooks).sort()).toEqual([...PERSISTED.webhooks].sort())
      const webhookFields = [...PERSISTED.webhooks, ...NOT_PERSISTED.webhooks] as string[]
      expect(fieldsHoldingState(ctx.webhooks).filter((k) => !webhookFields.includes(k))).toEqual([])
      expect(Object.keys(ctx).sort()).toEqual([...PERSISTED.context, ...NOT_PERSISTED.context].sort())
    } finally {
      await h.close()
    }
  })

  it("every table a sandbox module keeps outside the store is either saved or named as not kept", () => {
    const root = path.join(__dirname, "../../sandbox")
    const listed: Record<string, readonly string[]> = { ...PERSISTED.modules, ...NOT_PERSISTED.modules }
    const found: string[] = []
    for (const entry of fs.readdirSync(root, { recursive: true }) as string[]) {
      if (!entry.endsWith(".ts")) continue
      const source = fs.readFileSync(path.join(root, entry), "utf8")
      // Module-level tables start empty (`new Map()`); constants are made with their contents and never change.
      for (const m of source.matchAll(/^(?:export )?(?:const|let) (\w+)(?::[^=]+)? = (?:new (?:WeakMap|WeakSet|Map|Set)(?:<[^()]*>)?\(\)|null)/gm))
        found.push(`${entry}:${m[1]}`)
    }
    const unlisted = found.filter((f) => {
      const [file, name] = f.split(":")
      return !listed[file.split(path.sep).join("/")]?.includes(name)
    })
    expect(found.length).toBeGreaterThanOrEqual(5)
    expect(unlisted).toEqual([])
  })
})
