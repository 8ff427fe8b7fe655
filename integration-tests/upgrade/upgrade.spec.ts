/**
 * Upgrading with money in flight, as a store operator does it: the previous release (rebuilt from the commit
 * CHANGELOG.md names, integration-tests/upgrade/support/previous-release.ts) takes payments in every in-flight state,
 * is stopped, and the current tree is started on the same database (its migrations first) with the gateway (the
 * sandbox) running on and its webhook address unchanged; the current build then finishes or uses each payment,
 * and Medusa is compared with the gateway for every transaction, amount for amount.
 *
 * Both builds run as a store gets them: packed with `npm pack` (each tree's prepack runs its `medusa plugin:build`)
 * and installed with `npm install <tarball>` into ONE store folder (support/store-folder.ts: a Medusa project whose
 * medusa-config registers the plugin as README says), the previous release's tarball first, then this tree's over it
 * in the same folder, `medusa db:migrate` and `medusa start` through that folder's own CLI. What runs is the
 * packages' build output from node_modules, never a source tree. Stop-then-start only: no two builds run at once
 * here (side-by-side.spec.ts runs them, from their trees). One boot per build; one database, one sandbox.
 * Kept between runs on one machine: the previous release's installed tree and tarball (per commit, in the temp
 * folder), this tree's tarballs (per content, shared with the newcomer suite: newcomer/packed.ts), the store's
 * Medusa install (per Medusa version; each run's store is a hard-linked copy) and the fresh store the previous
 * release made (a PostgreSQL database named after the commit, copied for each run); both plugin installs, the
 * payments and the upgrade itself happen on every run.
 * A build that does not boot fails with its last log lines (UPGRADE_LOG_LEVEL=info for more of them).
 */
import { storeEnvFor } from "../../sandbox"
import { dropDatabase, seededPublishableKey } from "../../scripts/demo/database"
import { freePort } from "../../scripts/demo/flags"
import { stopProcess, waitForHealth, type Env } from "../../scripts/demo/medusa"
import { startHarness, waitFor, type SandboxHarness } from "../support/sandbox"
import { packedTree, pluginTarball } from "../newcomer/packed"
import { packedRelease, previousRelease, type PreviousRelease } from "./support/previous-release"
import { ADMIN, previousStore } from "./support/previous-store"
import { storeFolder, type StoreFolder } from "./support/store-folder"
import { atBankPage, ok, shop, type Client, type Shop } from "./support/shop"
import { gatewayAndMedusa } from "./support/agreement"
import { databaseUrl, Pg, type PgClient } from "./support/postgres"
import type { ChildProcess } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
const rootPackage = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"))
/** The store's Medusa: the one this tree is developed and tested on; the store keeps it across the upgrade. */
const MEDUSA = rootPackage.devDependencies["@medusajs/medusa"] as string
/** The plugin migrations this tree's source has: its tarball must carry every one. */
const SOURCE_MIGRATIONS = fs
  .readdirSync(path.join(ROOT, "src/modules/pgs/migrations"))
  .filter((f) => /^Migration\d+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort()
/** What npm records as a tarball's integrity in the store's package-lock.json. */
const integrityOf = (tarball: string) => `sha512-${createHash("sha512").update(fs.readFileSync(tarball)).digest("base64")}`

jest.setTimeout(20 * 60_000)

const PRICE = 2500 // the demo's gift card, 25 EUR, in cents
const PART = 1000

describe("upgrading from the previous release with payments in every in-flight state", () => {
  const dbUrl = databaseUrl(`pgs_upgrade_${process.pid}`)
  let previous: PreviousRelease
  let store: StoreFolder
  /** The tarballs installed into the store, in order. */
  let previousTarball = ""
  let currentTarball = ""
  let sandbox: SandboxHarness
  let db: PgClient
  let env: Env
  let base = ""
  let running: ChildProcess | undefined
  const tail: string[] = []
  const sql = async (text: string, params?: unknown[]) => (await db.query(text, params)).rows

  /** Starts `medusa start` in the store folder on its one port and waits until it answers. */
  const boot = async (name: string) => {
    tail.length = 0
    running = store.cli.startServer(env, (line) => (tail.push(`[${name}] ${line}`), tail.length > 80 && tail.shift()))
    await waitForHealth(base, running, 240_000).catch((error: Error) => {
      throw new Error(`${name}: ${error.message}\n${tail.join("\n")}`)
    })
  }

  beforeAll(async () => {
    previous = await previousRelease()
    // This tree's packages, packed (or taken from an earlier run of the same content) while the store is made.
    const current = packedTree()
    current.catch(() => undefined) // awaited below
    ;[previousTarball, store, sandbox] = await Promise.all([packedRelease(previous), storeFolder(MEDUSA, path.join(previous.dir, "scripts/demo/seed.ts")), startHarness()])
    await store.install(previousTarball)
    await dropDatabase(dbUrl)
    const port = await freePort(0)
    base = `http://127.0.0.1:${port}`
    env = {
      DATABASE_URL: dbUrl,
      NODE_OPTIONS: "",
      NODE_ENV: "development",
      MEDUSA_ADMIN: "false",
      MEDUSA_DISABLE_TELEMETRY: "true",
      MEDUSA_WORKER_MODE: "shared",
      REDIS_URL: "",
      LOG_LEVEL: process.env.UPGRADE_LOG_LEVEL ?? "error",
      PORT: String(port),
      PGS_WEBHOOK_RECEIVER_PORT: "",
      ...storeEnvFor(sandbox.config),
      PGS_TRANSACTION_TYPE: "AUTHORIZE",
      PGS_STORE_URL: "http://localhost:8000",
      PGS_BACKEND_URL: base,
      PGS_TIMEOUT_MANAGE_MS: "4000",
      // Every shopper here comes from 127.0.0.1: the current build's card-testing guard would count them as one.
      PGS_CARD_TESTING_ATTEMPTS_PER_ADDRESS: "1000000",
      PGS_CARD_TESTING_DECLINES_PER_ADDRESS: "1000000",
      PGS_CARD_TESTING_SESSIONS_PER_ADDRESS: "1000000",
    }
    // The store as the previous release made it: its migrations, the demo catalogue of its seed, its dashboard user;
    // kept per release and per store (its Medusa version: the base store's key).
    await previousStore(store, dbUrl, env, `pgs_packed_${previous.commit.slice(0, 12)}_${store.baseKey}`)
    currentTarball = pluginTarball(await current)
    db = new Pg({ connectionString: dbUrl })
    await db.connect()
    // The gateway's webhook address is the store's, whichever build answers there.
    await sandbox.control("POST", "/_sandbox/webhooks", { url: `${base}/hooks/pgs/webhooks` })
  }, 900_000)

  afterAll(async () => {
    await stopProcess(running)
    await db?.end()
    await sandbox?.close()
    await dropDatabase(dbUrl).catch(() => {})
    store?.remove()
  }, 120_000)

  // What the previous release left in flight, for the current build to finish.
  const inFlight = {} as {
    authorized: { paymentId: string; transactionId: string }
    partlyCaptured: { paymentId: string; transactionId: string }
    atTheBank: { cartId: string; bankPage: string }
    notPaid: { cartId: string }
    heldApproval: { cartId: string }
    savedCard: { token: string; cardId: string }
    answerLost: { paymentId: string; transactionId: string }
  }
  let shopper: Shop

  const paymentOfOrder = async (orderId: string) => {
    const rows = await sql(
      "select p.id, p.data->>'transaction_id' as transaction_id from payment p join order_payment_collection opc on opc.payment_collection_id = p.payment_collection_id and opc.deleted_at is null where opc.order_id = $1 and p.deleted_at is null",
      [orderId],
    )
    if (rows.length !== 1) throw new Error(`order ${orderId} has ${rows.length} payments`)
    return rows[0] as { id: string; transaction_id: string }
  }
  const orderOfCart = async (cartId: string) => (await sql("select order_id from order_cart where cart_id = $1 and deleted_at is null", [cartId]))[0]?.order_id as string | undefined
  const deliveries = async () => (await sandbox.control("GET", "/_sandbox/webhooks/deliveries")).body.deliveries as Array<{ state: string; event: string; subject_id: string }>
  const lostAnswerItem = async (transactionId: string) => (await sql("select state, resolved_at from pgs_follow_up where kind = 'unknown_management' and transaction_id = $1", [transactionId]))[0]

  it("the previous release takes payments in every in-flight state", async () => {
    const installed = store.plugin()
    await boot(`previous ${previous.version}`)
    shopper = shop(base, (await seededPublishableKey(dbUrl))!, sandbox)
    const admin: Client = await shopper.admin(ADMIN)

    // Authorized, not captured.
    const authorized = await paymentOfOrder((await shopper.order()).orderId)
    inFlight.authorized = { paymentId: authorized.id, transactionId: authorized.transaction_id }
    // Partly captured.
    const partly = await shopper.order()
    const partlyPayment = await paymentOfOrder(partly.orderId)
    ok(await admin.post(`/admin/payments/${partlyPayment.id}/capture`, { amount: PART / 100 }), "partial capture on the previous release")
    inFlight.partlyCaptured = { paymentId: partlyPayment.id, transactionId: partlyPayment.transaction_id }
    // A card saved by a logged-in shopper (the gateway's tokenization webhook stores it).
    const token = await shopper.customer()
    await shopper.order({ token, saveCard: true })
    const cards = await waitFor(
      async () => {
        const list = ok(await shopper.store(token).get("/store/pgs/saved-cards"), "saved cards").saved_cards as any[]
        return list.length ? list : undefined
      },
      { timeoutMs: 30_000, what: "the saved card listed by the previous release" },
    )
    inFlight.savedCard = { token, cardId: cards[0].id }
    // A bank payment whose shopper is on the bank's page.
    const bank = await shopper.atTheBank()
    inFlight.atTheBank = { cartId: bank.cartId, bankPage: bank.bankPage }
    // A card session created and not paid.
    inFlight.notPaid = { cartId: (await shopper.cardCart()).cartId }
    // Every webhook so far answered by the previous release before the gateway's queue starts running behind.
    await waitFor(async () => (await deliveries()).every((d) => d.state === "delivered"), { timeoutMs: 60_000, what: "every webhook delivered to the previous release" })

    await sandbox.control("POST", "/_sandbox/settings", { webhooks_held: true })
    // Approved at the bank while its webhook waits at the gateway; the shopper closed the tab instead of coming back.
    const held = await shopper.atTheBank()
    await atBankPage(held.bankPage, "approve")
    inFlight.heldApproval = { cartId: held.cartId }
    // A capture the gateway made whose answer was lost: on Needs attention until the gateway's message comes.
    const lost = await shopper.order()
    const lostPayment = await paymentOfOrder(lost.orderId)
    await sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", phase: "after", kind: "status", status: 503, count: 1 })
    const lostCapture = await admin.post(`/admin/payments/${lostPayment.id}/capture`, {})
    inFlight.answerLost = { paymentId: lostPayment.id, transactionId: lostPayment.transaction_id }

    const before = {
      "the store runs the previous release's tarball": { version: installed.version, from: path.basename(installed.from), integrity: installed.integrity },
      "partly captured: Medusa's capture": (await sql("select amount from capture where payment_id = $1 and deleted_at is null", [partlyPayment.id])).map((r) => Math.round(Number(r.amount) * 100)),
      "bank payment: no order while the shopper is at the bank": await orderOfCart(bank.cartId),
      "approved while held: no order before its webhook": await orderOfCart(held.cartId),
      "answer lost: the capture is refused to the admin": lostCapture.status >= 500,
      "answer lost: an open Needs attention item": (await lostAnswerItem(lostPayment.transaction_id))?.state,
      "answer lost: listed open on the dashboard": (ok(await admin.get("/admin/pgs/attention?limit=100&show=open"), "Needs attention").items as any[]).filter((i) => i.transaction_id === lostPayment.transaction_id).length,
      "answer lost: Medusa recorded no capture": (await sql("select 1 from capture where payment_id = $1 and deleted_at is null", [lostPayment.id])).length,
      "held webhooks: queued at the gateway": (await deliveries()).some((d) => d.state !== "delivered"),
    }
    expect(before).toEqual({
      "the store runs the previous release's tarball": { version: previous.version, from: path.basename(previousTarball), integrity: integrityOf(previousTarball) },
      "partly captured: Medusa's capture": [PART],
      "bank payment: no order while the shopper is at the bank": undefined,
      "approved while held: no order before its webhook": undefined,
      "answer lost: the capture is refused to the admin": true,
      "answer lost: an open Needs attention item": "needs_person",
      "answer lost: listed open on the dashboard": 1,
      "answer lost: Medusa recorded no capture": 0,
      "held webhooks: queued at the gateway": true,
    })
    await stopProcess(running)
  })

  it("the current build, started on the same database with the gateway running on, finishes each payment and agrees with the gateway amount for amount", async () => {
    if (!inFlight.answerLost) throw new Error("the previous release did not take every payment (the test before failed): nothing to upgrade")
    const applied = async () => (await sql("select name from mikro_orm_migrations where name like 'Migration%'")).map((r) => r.name as string)
    const appliedBefore = new Set(await applied())
    const previousOnes = store.plugin().migrations
    // The upgrade as a store makes it: this tree's tarball installed over the previous one, then its migrations.
    await store.install(currentTarball)
    const installed = store.plugin()
    await store.cli.runCli(["db:migrate"], env)
    // The tarball packed from this tree (npm's recorded sha512 is the tarball's), carrying every migration of this
    // tree's source; exactly those the previous package had not are applied by this one `db:migrate`.
    expect({
      "the store runs this tree's tarball": { version: installed.version, from: path.basename(installed.from), integrity: installed.integrity },
      "the package's plugin migrations": installed.migrations,
      "plugin migrations applied by the switch": (await applied()).filter((n) => !appliedBefore.has(n) && SOURCE_MIGRATIONS.includes(n)).sort(),
    }).toEqual({
      "the store runs this tree's tarball": { version: rootPackage.version, from: path.basename(currentTarball), integrity: integrityOf(currentTarball) },
      "the package's plugin migrations": SOURCE_MIGRATIONS,
      "plugin migrations applied by the switch": SOURCE_MIGRATIONS.filter((n) => !previousOnes.includes(n)),
    })
    await boot("current")
    const admin = await shopper.admin(ADMIN)

    // Authorized: captured in full, then part refunded. Partly captured: the rest captured, then part refunded.
    const steps: Record<string, number> = {
      "authorized: capture in full": (await admin.post(`/admin/payments/${inFlight.authorized.paymentId}/capture`, {})).status,
      "authorized: refund part": (await admin.post(`/admin/payments/${inFlight.authorized.paymentId}/refund`, { amount: PART / 100 })).status,
      "partly captured: capture the rest": (await admin.post(`/admin/payments/${inFlight.partlyCaptured.paymentId}/capture`, { amount: (PRICE - PART) / 100 })).status,
      "partly captured: refund part": (await admin.post(`/admin/payments/${inFlight.partlyCaptured.paymentId}/refund`, { amount: PART / 100 })).status,
    }
    // The session created before is paid now.
    const notPaid = await shopper.complete(inFlight.notPaid.cartId)
    steps["session created before: completed now"] = notPaid.status
    // The card saved before pays a new cart.
    const reuse = await shopper.order({ token: inFlight.savedCard.token, savedCardId: inFlight.savedCard.cardId }).then(
      (o) => ({ status: 200, orderId: o.orderId }),
      (error: Error) => ({ status: 0, error: error.message }),
    )
    steps["saved card: pays again"] = reuse.status
    // The gateway's queue catches up: the held approval and the lost capture's message reach the current build.
    await sandbox.control("POST", "/_sandbox/settings", { webhooks_held: false })
    const heldOrder = await waitFor(() => orderOfCart(inFlight.heldApproval.cartId), { timeoutMs: 60_000, what: "the order of the approval whose webhook was held" }).catch(() => undefined)
    const settled = await waitFor(async () => ((await lostAnswerItem(inFlight.answerLost.transactionId))?.state === "done" ? true : undefined), {
      timeoutMs: 60_000,
      what: "the lost capture's item closed by the gateway's message",
    }).catch(() => false)
    // The shopper approves at the bank; the gateway's webhook makes the order (the shopper has not come back yet).
    await atBankPage(inFlight.atTheBank.bankPage, "approve")
    const bankOrder = await waitFor(() => orderOfCart(inFlight.atTheBank.cartId), { timeoutMs: 60_000, what: "the order of the bank payment approved after the switch" }).catch(() => undefined)
    await waitFor(async () => (await deliveries()).every((d) => d.state === "delivered"), { timeoutMs: 60_000, what: "every webhook delivered to the current build" })
    const openItems = ok(await admin.get("/admin/pgs/attention?limit=100&show=open"), "Needs attention").items as any[]

    const after = {
      ...Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, v === 200 ? "ok" : `answered ${v}`])),
      "session created before: an order": notPaid.body?.type,
      "bank payment approved after the switch: an order": !!bankOrder,
      "bank payment: the shopper coming back finds the same order": bankOrder && (await shopper.complete(inFlight.atTheBank.cartId)).body?.order?.id === bankOrder,
      "approved while held: an order once the webhook came": !!heldOrder,
      "answer lost: the item closed by the gateway's message": settled,
      "answer lost: nothing open on Needs attention": openItems.filter((i) => i.transaction_id === inFlight.answerLost.transactionId),
      "answer lost: Medusa recorded the gateway's capture": (await sql("select amount from capture where payment_id = $1 and deleted_at is null", [inFlight.answerLost.paymentId])).map((r) => Math.round(Number(r.amount) * 100)),
    }
    expect(after).toEqual({
      "authorized: capture in full": "ok",
      "authorized: refund part": "ok",
      "partly captured: capture the rest": "ok",
      "partly captured: refund part": "ok",
      "session created before: completed now": "ok",
      "saved card: pays again": "ok",
      "session created before: an order": "order",
      "bank payment approved after the switch: an order": true,
      "bank payment: the shopper coming back finds the same order": true,
      "approved while held: an order once the webhook came": true,
      "answer lost: the item closed by the gateway's message": true,
      "answer lost: nothing open on Needs attention": [],
      "answer lost: Medusa recorded the gateway's capture": [PRICE],
    })

    // Every transaction the gateway holds, on both sides, amount for amount.
    const { compared, unknownToGateway } = await gatewayAndMedusa(sandbox, sql)
    const disagreements = Object.entries(compared).filter(([, c]) => JSON.stringify(c.gateway) !== JSON.stringify(c.medusa))
    expect({ transactions: Object.keys(compared).length, disagreements, unknownToGateway }).toEqual({
      // authorized, partly captured, saved (first and again), two bank payments, the session paid after, answer lost
      transactions: 8,
      disagreements: [],
      unknownToGateway: [],
    })
    expect({ authorized: compared[inFlight.authorized.transactionId]?.medusa, "partly captured": compared[inFlight.partlyCaptured.transactionId]?.medusa }).toEqual({
      authorized: { amount: PRICE, captures: [PRICE], refunds: [PART] },
      "partly captured": { amount: PRICE, captures: [PART, PRICE - PART], refunds: [PART] },
    })
  })
})
