import { createHash, createPublicKey } from "node:crypto"
import { jwtVerify } from "jose"
import { transactionEvent, TRANSACTION_EVENTS } from "../../src/gateway/schemas"
import { startHarness, uniqueReference, waitFor, type SandboxHarness } from "../support/sandbox"
import { startWebhookReceiver } from "../support/webhook-receiver"

/**
 * Webhooks are triggered here by a transaction the terminal refuses (INVALID, a final state): that path needs
 * nothing but the authorize dispatcher, so these tests check delivery itself.
 */
async function refusedPurchase(h: SandboxHarness, terminalId = "SBX-APM-001") {
  await h.control("POST", `/_sandbox/terminals/${terminalId}`, { accepting: false })
  const res = await h.api("POST", "/api/transactions/authorize", {
    reference: uniqueReference("wh"),
    terminal_id: terminalId,
    description: "webhook trigger",
    currency: "EUR",
    amount: 1234,
    transaction_type: "PURCHASE",
    payment_method: { type: "wallet-one-redirect", data: {} },
    return_url: "https://shop.example/return",
  })
  await h.control("POST", `/_sandbox/terminals/${terminalId}`, { accepting: true })
  expect(res.status).toBe(200)
  return res.body.result as { id: string; status: string; processing_code: string }
}

describe("sandbox webhooks", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness({ webhookTimeScale: 0.02 })
  })
  beforeEach(async () => {
    await h.control("POST", "/_sandbox/reset")
  })
  afterAll(() => h.close())

  it("records a refused transaction as INVALID with processing code 2015 and sends purchase:declined", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await refusedPurchase(h)
      expect(tx).toMatchObject({ status: "INVALID", processing_code: "2015" })
      const hit = await waitFor(() => receiver.received.find((r) => r.body?.payload?.id === tx.id), { what: "webhook" })
      expect(hit.body.event).toBe("transaction-svc:transaction:purchase:declined")
    } finally {
      await receiver.close()
    }
  })

  it("signs each delivery with a JWT issued now, expiring in 10 minutes, whose data.SHA512 is the SHA-512 of the exact raw body", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      await refusedPurchase(h)
      const hit = await waitFor(() => receiver.received[0], { what: "webhook" })
      expect(hit.headers["content-type"]).toBe("application/json")
      const token = /^Bearer (.+)$/.exec(String(hit.headers.authorization))![1]
      const { payload, protectedHeader } = await jwtVerify(token, createPublicKey(h.config.webhook_public_key), { algorithms: ["RS256"] })
      expect(protectedHeader.alg).toBe("RS256")
      expect((payload.data as { SHA512: string }).SHA512).toBe(createHash("sha512").update(hit.raw).digest("hex"))
      // The store refuses a token without both (src/gateway/webhooks.ts): issued now, ending 10 minutes later.
      expect(Math.abs(payload.iat! - Date.now() / 1000)).toBeLessThan(60)
      expect(payload.exp! - payload.iat!).toBe(600)
    } finally {
      await receiver.close()
    }
  })

  it("sends a payload with every documented field, number_of_instalments always present", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      await refusedPurchase(h)
      const hit = await waitFor(() => receiver.received[0], { what: "webhook" })
      expect(transactionEvent.safeParse(hit.body).success).toBe(true)
      expect(Object.keys(hit.body.payload)).toContain("number_of_instalments")
      expect(hit.body.payload.payment_method_token).toBeNull()
    } finally {
      await receiver.close()
    }
  })

  it("keeps webhooks queued while held and sends each of them once released", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      expect((await h.control("POST", "/_sandbox/settings", { webhooks_held: true })).body.webhooks_held).toBe(true)
      const first = await refusedPurchase(h)
      const second = await refusedPurchase(h)
      const queued = async (id: string) => (await h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${id}`)).body.deliveries
      // Both transactions are final and their deliveries exist, yet nothing has been sent.
      expect((await queued(first.id)).map((d: any) => [d.state, d.attempts.length])).toEqual([["scheduled", 0]])
      expect((await queued(second.id)).map((d: any) => [d.state, d.attempts.length])).toEqual([["scheduled", 0]])
      expect(receiver.received).toHaveLength(0)
      expect((await h.control("POST", "/_sandbox/settings", { webhooks_held: false })).body.webhooks_held).toBe(false)
      const hits = await waitFor(() => (receiver.received.length >= 2 ? receiver.received : null), { what: "both held webhooks" })
      expect(hits.map((hit) => hit.body.payload.id).sort()).toEqual([first.id, second.id].sort())
    } finally {
      await h.control("POST", "/_sandbox/settings", { webhooks_held: false })
      await receiver.close()
    }
  })

  it("retries a failed delivery with growing delays until the endpoint answers 2xx", async () => {
    const receiver = await startWebhookReceiver((_hit, i) => (i < 3 ? 500 : 204))
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await refusedPurchase(h)
      const delivery = await waitFor(
        async () => (await h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${tx.id}`)).body.deliveries.find((d: any) => d.state === "delivered"),
        { what: "delivered webhook" },
      )
      expect(delivery.attempts.map((a: any) => a.status)).toEqual([500, 500, 500, 204])
      const times = delivery.attempts.map((a: any) => Date.parse(a.at))
      // Scheduled delays are 1 s, 2 s, 4 s scaled by 0.02: 20, 40, 80 ms.
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(20 * 2 ** (i - 1) - 5)
    } finally {
      await receiver.close()
    }
  })

  it("gives up once the 24-hour retry window (scaled) has passed", async () => {
    const quick = await startHarness({ webhookTimeScale: 0.00002 })
    const receiver = await startWebhookReceiver(() => 503)
    try {
      await quick.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await refusedPurchase(quick)
      const delivery = await waitFor(
        async () => (await quick.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${tx.id}`)).body.deliveries.find((d: any) => d.state === "gave_up"),
        { what: "delivery to give up", timeoutMs: 20_000 },
      )
      const span = Date.parse(delivery.attempts.at(-1).at) - Date.parse(delivery.created_at)
      expect(span).toBeLessThanOrEqual(24 * 3600_000 * 0.00002 + 200)
      expect(delivery.attempts.length).toBeGreaterThan(5)
    } finally {
      await receiver.close()
      await quick.close()
    }
  })

  it("delivers the same bytes twice under a duplicate fault", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      await h.control("POST", "/_sandbox/faults", { target: "webhook", kind: "duplicate" })
      await refusedPurchase(h)
      await waitFor(() => receiver.received.length === 2, { what: "two deliveries" })
      expect(receiver.received[0].raw.equals(receiver.received[1].raw)).toBe(true)
    } finally {
      await receiver.close()
    }
  })

  it("delivers a later event before an earlier one under an out_of_order fault", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      await h.control("POST", "/_sandbox/faults", { target: "webhook", kind: "out_of_order" })
      const first = await refusedPurchase(h)
      const second = await refusedPurchase(h)
      await waitFor(() => receiver.received.length === 2, { what: "two deliveries" })
      expect(receiver.received.map((r) => r.body.payload.id)).toEqual([second.id, first.id])
    } finally {
      await receiver.close()
    }
  })

  it("resends the current state of a transaction on request", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await refusedPurchase(h)
      await waitFor(() => receiver.received.length === 1, { what: "first delivery" })
      expect((await h.control("POST", `/_sandbox/transactions/${tx.id}/webhook`)).status).toBe(202)
      await waitFor(() => receiver.received.length === 2, { what: "resent delivery" })
      expect(receiver.received[1].body.payload.id).toBe(tx.id)
    } finally {
      await receiver.close()
    }
  })

  it("uses the generic event names when set to", async () => {
    const receiver = await startWebhookReceiver()
    try {
      await h.control("POST", "/_sandbox/settings", { event_names: "generic" })
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      await refusedPurchase(h)
      const hit = await waitFor(() => receiver.received[0], { what: "webhook" })
      expect(hit.body.event).toBe("transaction-svc:transaction:declined")
      expect(TRANSACTION_EVENTS).toContain(hit.body.event)
    } finally {
      await h.control("POST", "/_sandbox/settings", { event_names: "specific" })
      await receiver.close()
    }
  })

  it("lists every attempt with the endpoint's answer", async () => {
    const receiver = await startWebhookReceiver(() => 202)
    try {
      await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
      const tx = await refusedPurchase(h)
      const list = await waitFor(async () => {
        const d = (await h.control("GET", "/_sandbox/webhooks/deliveries")).body.deliveries
        return d.length && d[0].state === "delivered" ? d : null
      })
      expect(list[0]).toMatchObject({ subject_id: tx.id, url: receiver.url, event: "transaction-svc:transaction:purchase:declined" })
      expect(list[0].attempts[0].status).toBe(202)
    } finally {
      await receiver.close()
    }
  })
})
