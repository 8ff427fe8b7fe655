/**
 * The retry rule against the sandbox's fault injector: idempotent calls are repeated and the ledger shows one
 * charge; unsafe calls are not; management calls that lose their answer are reconciled, never repeated blindly.
 */
import { GatewayOutcomeUnknownError, GatewayRateLimitedError, GatewayTimeoutError, GatewayUnavailableError, fingerprintResult, type PgsClient } from "../../src/gateway"
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { cardAuthorize, caught, clientFor, fault, ledgerFor, stats } from "./support"

const AUTHORIZE = "POST /api/transactions/authorize"
const MANAGE = "POST /api/transactions/manage"

let h: SandboxHarness
let client: PgsClient
const WRITE_TIMEOUT_MS = 1_500

beforeAll(async () => {
  h = await startHarness()
  // Timeouts well above the latency test's 150 ms even on a loaded 2-core machine, well below the 3 s holds.
  client = clientFor(h, { timeouts: { write: WRITE_TIMEOUT_MS, manage: 1_500, read: 2_000 } })
  await client.accessToken()
})
afterEach(() => h.control("DELETE", "/_sandbox/faults"))
afterAll(async () => {
  await client.close()
  await h.close()
})

async function charges(reference: string) {
  const rows = (await ledgerFor(h, reference)).filter((e) => e.operation === AUTHORIZE)
  return { created: rows.filter((e) => !e.replay).length, replays: rows.filter((e) => e.replay).length }
}

describe("authorize under faults (idempotent by reference)", () => {
  it.each([
    ["status 503", "before", { kind: "status", status: 503 }],
    ["status 503", "after", { kind: "status", status: 502 }],
    ["drop", "before", { kind: "drop" }],
    ["drop", "after", { kind: "drop" }],
    ["timeout", "before", { kind: "timeout", latency_ms: 3_000 }],
    ["timeout", "after", { kind: "timeout", latency_ms: 3_000 }],
  ] as const)("retries after %s (%s processing) and charges once", async (_name, phase, rule) => {
    const body = cardAuthorize(h, client)
    await fault(h, { target: AUTHORIZE, phase, ...rule })
    const result = await client.payments.authorize(body)
    expect(result.kind).toBe("finished")
    if (result.kind === "finished") expect(result.transaction.status).toBe("APPROVED")
    const ledger = await charges(body.reference)
    expect(ledger.created).toBe(1)
    // A fault after processing means the repeat found the existing transaction.
    expect(ledger.replays).toBe(phase === "after" ? 1 : 0)
  })

  it("honours a 429 with Retry-After and charges once", async () => {
    const body = cardAuthorize(h, client)
    await fault(h, { target: AUTHORIZE, kind: "status", status: 429 })
    const started = Date.now()
    await client.payments.authorize(body)
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
    expect((await charges(body.reference)).created).toBe(1)
  })

  it("waits through added latency shorter than the timeout", async () => {
    const body = cardAuthorize(h, client)
    await fault(h, { target: AUTHORIZE, kind: "latency", latency_ms: 150 })
    expect((await client.payments.authorize(body)).kind).toBe("finished")
    expect(await charges(body.reference)).toEqual({ created: 1, replays: 0 })
  })

  it("gives up after the retry budget with a typed error carrying status and request id", async () => {
    const body = cardAuthorize(h, client)
    await fault(h, { target: AUTHORIZE, kind: "status", status: 503, count: 10 })
    const error = await caught(client.payments.authorize(body))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.statusCode).toBe(503)
    expect(error.requestId).toMatch(/^req_/)
    expect((await charges(body.reference)).created).toBe(0)
  })

  it("reports a timeout as a timeout when every attempt times out", async () => {
    const body = cardAuthorize(h, client)
    await fault(h, { target: AUTHORIZE, kind: "timeout", latency_ms: 3_000, count: 3 })
    const error = await caught(client.payments.authorize(body))
    expect(error).toBeInstanceOf(GatewayTimeoutError)
    expect(error.timeoutMs).toBe(WRITE_TIMEOUT_MS)
  })

  it("retries the token call and status reads after 5xx", async () => {
    const fresh = clientFor(h)
    await fault(h, { target: "POST /auth/realms/:realm/protocol/openid-connect/token", kind: "status", status: 503 })
    await fault(h, { target: "GET /api/transactions/:id/status", kind: "drop" })
    expect((await fresh.status.retrieve("trx_x")).found).toBe(false)
    expect(fresh.tokenRequests).toBe(2)
    await fresh.close()
  })
})

describe("calls that are not safe to repeat", () => {
  it("does not repeat a 3-D Secure continuation whose response was lost", async () => {
    const fp = await client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_A_FRICTIONLESS" } }))
    if (fp.kind !== "fingerprint") throw new Error(`expected a fingerprint, got ${fp.kind}`)
    const target = "POST /api/transactions/three-ds/:id/request-authentication"
    await fault(h, { target, kind: "status", status: 503, phase: "after" })
    const before = (await stats(h)).requests[target] ?? 0
    const error = await caught(client.threeDS.requestAuthentication(fp.token.three_ds_server_trans_id, { fingerprint_result: fingerprintResult(true), payment_data: fp.action.payment_data }))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect((await stats(h)).requests[target] - before).toBe(1)
  })

  it("does not repeat a customer creation after a 429", async () => {
    await fault(h, { target: "POST /api/customers", kind: "status", status: 429 })
    const error = await caught(client.customers.create({ email: "once@example.com" }))
    expect(error).toBeInstanceOf(GatewayRateLimitedError)
  })
})

describe("management under faults", () => {
  async function authorized(amount = 1999) {
    const body = cardAuthorize(h, client, "frictionless_approved", { transaction_type: "AUTHORIZE", amount })
    const result = await client.payments.authorize(body)
    return { terminal_id: h.terminalId, reference: body.reference, currency: "EUR", amount, parent_transaction_id: result.transactionId as string }
  }
  const manageRows = async (reference: string, type: string) =>
    (await ledgerFor(h, reference)).filter((e) => e.operation === MANAGE && e.transaction_type === type)

  it("confirms a VOID whose response was lost through the parent status, without voiding twice", async () => {
    const base = await authorized()
    await fault(h, { target: MANAGE, kind: "status", status: 503, phase: "after" })
    const result = await client.modifications.void(base)
    expect(result.kind).toBe("confirmed")
    if (result.kind === "confirmed") expect(result.parent.status).toBe("CANCELED")
    expect(await manageRows(base.reference, "VOID")).toHaveLength(1)
  })

  it("repeats a VOID once when the parent status proves it did not happen", async () => {
    const base = await authorized()
    await fault(h, { target: MANAGE, kind: "drop", phase: "before" })
    const result = await client.modifications.void(base, { idempotencyKey: "void-key-1" })
    expect(result.kind).toBe("applied")
    const rows = await manageRows(base.reference, "VOID")
    expect(rows).toHaveLength(1)
    const child = await client.status.retrieve(rows[0].transaction_id)
    expect(child.transaction?.status).toBe("APPROVED")
  })

  it.each([
    ["drop after processing", { kind: "drop", phase: "after" }, 1],
    ["timeout after processing", { kind: "timeout", phase: "after", latency_ms: 3_000 }, 1],
    ["503 before processing", { kind: "status", status: 503, phase: "before" }, 0],
    ["429 before processing", { kind: "status", status: 429, phase: "before" }, 0],
  ] as const)("does not repeat a CAPTURE after %s: outcome unknown with the idempotency key", async (_name, rule, captured) => {
    const base = await authorized()
    await fault(h, { target: MANAGE, ...rule })
    const error = await caught(client.modifications.capture({ ...base, amount: 500 }, { idempotencyKey: "cap-unknown-1" }))
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
    expect(error.attempt).toMatchObject({ transactionType: "CAPTURE", reference: base.reference, parentTransactionId: base.parent_transaction_id, amount: 500, idempotencyKey: "cap-unknown-1" })
    expect(await manageRows(base.reference, "CAPTURE")).toHaveLength(captured)
  })

  it("reports a CAPTURE answered 2xx with an unreadable body as outcome unknown, never as failed", async () => {
    const base = await authorized()
    await fault(h, { target: MANAGE, kind: "garble", phase: "after" })
    const error = await caught(client.modifications.capture({ ...base, amount: 700 }, { idempotencyKey: "cap-garbled-1" }))
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
    expect(error.attempt.idempotencyKey).toBe("cap-garbled-1")
    expect(await manageRows(base.reference, "CAPTURE")).toHaveLength(1)
  })

  it("does not repeat a REFUND whose response was lost", async () => {
    const base = await authorized()
    await client.modifications.capture(base)
    await fault(h, { target: MANAGE, kind: "status", status: 500, phase: "after" })
    const error = await caught(client.modifications.refund({ ...base, amount: 300 }))
    expect(error).toBeInstanceOf(GatewayOutcomeUnknownError)
    expect(error.attempt.idempotencyKey).toMatch(/[0-9a-f-]{36}/)
    expect(await manageRows(base.reference, "REFUND")).toHaveLength(1)
  })
})
