/** Real sandbox deliveries verified by the client's WebhookVerifier, including the sandbox's webhook fault kinds. */
import { GatewayOutcomeUnknownError, isManagementEventFor, TOKENIZATION_EVENT, WebhookVerifier, WebhookVerificationError, type PgsClient } from "../../src/gateway"
import { startHarness, waitFor, type SandboxHarness } from "../support/sandbox"
import { startWebhookReceiver, type ReceivedWebhook } from "../support/webhook-receiver"
import { cardAuthorize, caught, clientFor, fault } from "./support"

let h: SandboxHarness
let client: PgsClient
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
let verifier: WebhookVerifier
beforeAll(async () => {
  h = await startHarness()
  client = clientFor(h)
  receiver = await startWebhookReceiver()
  await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
  verifier = clientFor(h, { webhookPublicKeys: h.config.webhook_public_key }).webhooks
})
afterEach(() => h.control("DELETE", "/_sandbox/faults"))
afterAll(async () => {
  await client.close()
  await receiver.close()
  await h.close()
})

const about = (id: string) => (hit: ReceivedWebhook) => hit.body?.payload?.id === id || hit.body?.payload?.transaction_id === id || hit.body?.payload?.data?.transaction_id === id
const hitsFor = (id: string, n: number) => waitFor(() => { const hits = receiver.received.filter(about(id)); return hits.length >= n && hits }, { what: `${n} deliveries for ${id}` })

describe("webhook verification of real deliveries", () => {
  it("verifies a transaction event and returns it typed", async () => {
    const r = await client.payments.authorize(cardAuthorize(h, client))
    const [hit] = await hitsFor(r.transactionId, 1)
    const { event } = await verifier.verify(hit.raw, hit.headers.authorization)
    expect(event.event).toBe("transaction-svc:transaction:purchase:approved")
    if (event.event !== TOKENIZATION_EVENT) expect(event.payload.id).toBe(r.transactionId)
  })

  it("rejects a real delivery checked against another key, or with its body re-serialized", async () => {
    const r = await client.payments.authorize(cardAuthorize(h, client))
    const [hit] = await hitsFor(r.transactionId, 1)
    const wrongKey = new WebhookVerifier({ publicKeys: h.config.merchant_public_key })
    expect((await caught(wrongKey.verify(hit.raw, hit.headers.authorization))).reason).toBe("bad_signature")
    const reserialized = JSON.stringify(JSON.parse(hit.raw.toString()), null, 1)
    const error = await caught(verifier.verify(reserialized, hit.headers.authorization))
    expect(error).toBeInstanceOf(WebhookVerificationError)
    expect(error.reason).toBe("digest_mismatch")
  })

  it("verifies both tokenization payload forms", async () => {
    for (const form of ["nested", "flat"] as const) {
      await h.control("POST", "/_sandbox/settings", { tokenization_payload: form })
      const r = await client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { tokenization: { save_card_for_future_payments: true } }))
      const hits = await waitFor(() => { const t = receiver.received.filter((x) => x.body?.event === TOKENIZATION_EVENT && about(r.transactionId)(x)); return t.length > 0 && t }, { what: `${form} tokenization event` })
      const { event } = await verifier.verify(hits[0].raw, hits[0].headers.authorization)
      expect(event.event).toBe(TOKENIZATION_EVENT)
      expect(form === "flat" ? "data" in event.payload : "payment_method" in event.payload).toBe(true)
    }
    await h.control("POST", "/_sandbox/settings", { tokenization_payload: "nested" })
  })

  it("carries the management idempotency key and parent_id in the management webhook", async () => {
    const body = cardAuthorize(h, client, "frictionless_approved", { transaction_type: "AUTHORIZE" })
    const auth = await client.payments.authorize(body)
    const capture = await client.modifications.capture({ terminal_id: h.terminalId, reference: body.reference, currency: "EUR", amount: 700, parent_transaction_id: auth.transactionId }, { idempotencyKey: "medusa-idem-42" })
    if (capture.kind !== "applied") throw new Error("expected applied")
    const [hit] = await hitsFor(capture.transaction.id, 1)
    const { event } = await verifier.verify(hit.raw, hit.headers.authorization)
    expect(event.event).toBe("transaction-svc:transaction:management:capture:approved")
    if (event.event === TOKENIZATION_EVENT) throw new Error("unexpected")
    expect(event.payload.parent_id).toBe(auth.transactionId)
    expect(event.payload.metadata).toMatchObject({ idempotency_key: "medusa-idem-42" })
  })

  it("settles a CAPTURE whose outcome was unknown with the management webhook that carries its idempotency key", async () => {
    const body = cardAuthorize(h, client, "frictionless_approved", { transaction_type: "AUTHORIZE" })
    const auth = await client.payments.authorize(body)
    await fault(h, { target: "POST /api/transactions/manage", kind: "drop", phase: "after" })
    const error = await caught(client.modifications.capture({ terminal_id: h.terminalId, reference: body.reference, currency: "EUR", amount: 900, parent_transaction_id: auth.transactionId }))
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
    const settled = await waitFor(async () => {
      for (const hit of receiver.received.filter((x) => x.body?.payload?.parent_id === auth.transactionId)) {
        const { event } = await verifier.verify(hit.raw, hit.headers.authorization)
        if (isManagementEventFor(event, error.attempt)) return event
      }
      return undefined
    }, { what: "the capture webhook" })
    expect(settled.event).toBe("transaction-svc:transaction:management:capture:approved")
    const other = { ...error.attempt, idempotencyKey: "someone-else" }
    expect(isManagementEventFor(settled, other)).toBe(false)
  })

  it.each(["duplicate", "fail", "out_of_order"] as const)("verifies every delivery under the %s fault", async (kind) => {
    await fault(h, { target: "webhook", kind })
    const first = await client.payments.authorize(cardAuthorize(h, client))
    const second = await client.payments.authorize(cardAuthorize(h, client))
    const hits = [...(await hitsFor(first.transactionId, kind === "duplicate" ? 2 : 1)), ...(await hitsFor(second.transactionId, 1))]
    for (const hit of hits) await expect(verifier.verify(hit.raw, hit.headers.authorization)).resolves.toBeTruthy()
    if (kind === "duplicate") expect(hits[0].raw.equals(hits[1].raw)).toBe(true)
  })
})
