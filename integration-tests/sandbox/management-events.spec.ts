import { transactionEvent } from "../../src/gateway/schemas"
import { startHarnessWithReceiver, waitFor, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { approved, expectInvalid, manage, refusedOriginal } from "./management-helpers"

/** What management leaves behind: its webhooks and one ledger row per call. */
describe("POST /api/transactions/manage: webhooks and ledger", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  const eventFor = (childId: string) =>
    waitFor(() => receiver.received.find((r) => r.body?.payload?.id === childId), { what: `webhook for ${childId}` })

  it("sends management:capture:approved for a capture, naming the original in parent_id", async () => {
    const parent = await approved(h, "AUTHORIZE", 8_000)
    const capture = await manage(h, parent, "CAPTURE", 5_000, { metadata: { order_id: "order_42" } })
    const hit = await eventFor(capture.body.id)
    const event = transactionEvent.parse(hit.body)
    expect(event.event).toBe("transaction-svc:transaction:management:capture:approved")
    expect(event.payload).toMatchObject({
      id: capture.body.id,
      parent_id: parent.id,
      reference: parent.reference,
      transaction_type: "CAPTURE",
      status: "APPROVED",
      processing_code: "0000",
      amount: 5_000,
      currency: "EUR",
      metadata: { order_id: "order_42" },
    })
  })

  it("sends management:refund:approved for a refund", async () => {
    const parent = await approved(h, "PURCHASE", 8_000)
    const refund = await manage(h, parent, "REFUND", 2_000)
    const hit = await eventFor(refund.body.id)
    expect(hit.body.event).toBe("transaction-svc:transaction:management:refund:approved")
    expect(hit.body.payload).toMatchObject({ parent_id: parent.id, transaction_type: "REFUND", amount: 2_000 })
  })

  it("sends management:void:approved for a void", async () => {
    const parent = await approved(h, "AUTHORIZE", 8_000)
    const voided = await manage(h, parent, "VOID", 8_000)
    const hit = await eventFor(voided.body.id)
    expect(hit.body.event).toBe("transaction-svc:transaction:management:void:approved")
    expect(hit.body.payload).toMatchObject({ parent_id: parent.id, transaction_type: "VOID", status: "APPROVED" })
  })

  it("sends management:capture:declined for a capture that does not apply", async () => {
    const parent = await refusedOriginal(h, "AUTHORIZE")
    const capture = await manage(h, parent, "CAPTURE", parent.amount)
    const hit = await eventFor(capture.body.id)
    expect(hit.body.event).toBe("transaction-svc:transaction:management:capture:declined")
    expect(hit.body.payload).toMatchObject({ parent_id: parent.id, status: "DECLINED", processing_code: "1000" })
  })

  it("sends management:refund:declined for a refund that does not apply", async () => {
    const parent = await refusedOriginal(h, "PURCHASE")
    const refund = await manage(h, parent, "REFUND", parent.amount)
    expect((await eventFor(refund.body.id)).body.event).toBe("transaction-svc:transaction:management:refund:declined")
  })

  it("sends management:void:declined for a void that does not apply", async () => {
    const parent = await refusedOriginal(h, "AUTHORIZE")
    const voided = await manage(h, parent, "VOID", parent.amount)
    expect((await eventFor(voided.body.id)).body.event).toBe("transaction-svc:transaction:management:void:declined")
  })

  it("sends the generic management:declined when the sandbox uses generic event names", async () => {
    await h.control("POST", "/_sandbox/settings", { event_names: "generic" })
    try {
      const parent = await refusedOriginal(h, "AUTHORIZE")
      const voided = await manage(h, parent, "VOID", parent.amount)
      expect((await eventFor(voided.body.id)).body.event).toBe("transaction-svc:transaction:management:declined")
    } finally {
      await h.control("POST", "/_sandbox/settings", { event_names: "specific" })
    }
  })

  it("shows one ledger row per manage call, and none for a refused (422) request", async () => {
    const parent = await approved(h, "AUTHORIZE", 9_000)
    const calls = [
      await manage(h, parent, "CAPTURE", 4_000),
      await manage(h, parent, "CAPTURE", 4_000, { options: { final_capture: true } }),
      await manage(h, parent, "CAPTURE", 1_000),
      await manage(h, parent, "REFUND", 2_500),
    ]
    expectInvalid(await manage(h, parent, "REFUND", 9_000), "amount")
    const ledger = await h.control("GET", "/_sandbox/ledger")
    const rows = ledger.body.entries.filter((e: { parent_id: string | null }) => e.parent_id === parent.id)
    expect(rows).toEqual(
      calls.map((c) =>
        expect.objectContaining({
          operation: "POST /api/transactions/manage",
          transaction_id: c.body.id,
          transaction_type: c.body.transaction_type,
          reference: parent.reference,
          amount: c.body.amount,
          currency: "EUR",
          replay: false,
          status: c.body.status,
        }),
      ),
    )
    expect(rows.map((r: { status: string }) => r.status)).toEqual(["APPROVED", "APPROVED", "DECLINED", "APPROVED"])
  })
})
