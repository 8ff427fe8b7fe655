/**
 * With Medusa's OpenTelemetry instrumentation on (registerOtel, as a store's instrumentation.ts calls it; here with
 * an in-memory exporter), the plugin's gateway calls, webhook intakes and event runs are spans of their own, with
 * the operation, status and duration, and nothing secret: no client secret, token, card number, URL query or
 * transaction id inside a span's name.
 */
import { InMemorySpanExporter, type ReadableSpan } from "@medusajs/framework/opentelemetry/sdk-trace-node"
import { context, diag, metrics, propagation, trace } from "@medusajs/framework/opentelemetry/api"
import { registerOtel } from "@medusajs/medusa"
import { storeBody } from "../support/store"
import { paidOrder } from "../support/admin-pgs"
import { waitFor } from "../support/webhooks"
import { PGS_TRACER_NAME } from "../../../src/lib/tracing"

const exporter = new InMemorySpanExporter()

/** What the OpenTelemetry API holds process-wide (trace, context, propagation, metrics, diag), by name. */
function otelGlobals(): string[] {
  const key = Object.getOwnPropertySymbols(globalThis).find((sym) => sym.description?.startsWith("opentelemetry.js.api."))
  return key ? Object.keys((globalThis as Record<symbol, object>)[key]).filter((name) => name !== "version") : []
}
const OTEL_APIS: Record<string, { disable(): void }> = { trace, context, propagation, metrics, diag }

const ours = () => exporter.getFinishedSpans().filter((span: ReadableSpan) => span.instrumentationScope.name === PGS_TRACER_NAME)
const durationMs = (span: ReadableSpan) => span.duration[0] * 1000 + span.duration[1] / 1e6

export default storeBody("tracing", (s) => {
  // Registered for these tests only, in a store already up (the plugin asks for an SDK on every span:
  // src/lib/tracing.ts), and taken away after them with what it registered process-wide, so the other behaviours
  // sharing the store run untraced, as before.
  let sdk: ReturnType<typeof registerOtel>
  let before: string[]
  beforeAll(() => {
    before = otelGlobals()
    sdk = registerOtel({ serviceName: "pgs-tracing-test", exporter, instrument: {} })
  })
  afterAll(async () => {
    if (!sdk) return
    await sdk.shutdown()
    for (const name of otelGlobals()) if (!before.includes(name)) OTEL_APIS[name]?.disable()
  })

  it("shows a paid order's gateway calls, webhook intake and event run as spans with operation, status and duration", async () => {
    exporter.reset()
    const { transactionId } = await paidOrder(s)
    const spans = await waitFor(() => {
      const found = ours()
      return found.some((sp) => sp.name.startsWith("pgs.event ")) ? found : null
    }, { what: "the event run's span" })

    const gateway = spans.filter((sp) => sp.name.startsWith("pgs.gateway "))
    expect(gateway.length).toBeGreaterThan(0)
    for (const span of gateway) {
      expect(span.name).toMatch(/^pgs\.gateway (GET|POST|DELETE) \/[\w/{}-]+$/)
      expect(span.attributes).toMatchObject({ "pgs.operation": span.name.slice("pgs.gateway ".length), "http.response.status_code": expect.any(Number), "pgs.attempts": expect.any(Number) })
      expect(durationMs(span)).toBeGreaterThan(0)
    }
    const intake = spans.find((sp) => sp.name === "pgs.webhook intake")
    expect(intake?.attributes).toMatchObject({ "http.response.status_code": 200, "pgs.intake": "recorded", "pgs.event": expect.stringMatching(/^transaction-svc:transaction:/) })
    const event = spans.find((sp) => sp.name.startsWith("pgs.event "))
    expect(event?.attributes).toMatchObject({ "pgs.event": expect.stringMatching(/^transaction-svc:transaction:/), "pgs.outcome": expect.stringMatching(/^applied:/) })
    expect(event!.status.code).toBe(1)

    // Nothing secret or identifying in any of them: names and attributes together.
    const text = JSON.stringify(spans.map((sp) => ({ name: sp.name, attributes: sp.attributes, status: sp.status })))
    for (const secret of [process.env.PGS_CLIENT_SECRET!, s.sandbox.testCard("frictionless_approved"), "Bearer", "?", transactionId]) {
      expect(text).not.toContain(secret)
    }
  })

  it("marks a rejected webhook's intake span with its status, and names a read of an unknown transaction by its operation, not its id", async () => {
    exporter.reset()
    const rejected = await s.api.post("/hooks/pgs/webhooks", "{}", { headers: { "content-type": "application/json", authorization: "Bearer nope" }, validateStatus: () => true })
    expect(rejected.status).toBe(401)
    const intake = await waitFor(() => ours().find((sp) => sp.name === "pgs.webhook intake"), { what: "the intake span" })
    expect(intake.attributes).toMatchObject({ "http.response.status_code": 401, "pgs.intake": "rejected" })

    const pgs = s.container().resolve<any>("pgs")
    await expect(pgs.gateway().status.transaction("trx_not_there")).resolves.toBeNull()
    const read = ours().find((sp) => sp.name === "pgs.gateway GET /api/transactions/{id}/status")
    // The status endpoint answers an unknown id with 200 and found: false.
    expect(read?.attributes).toMatchObject({ "pgs.operation": "GET /api/transactions/{id}/status", "http.response.status_code": 200, "pgs.attempts": 1 })
    expect(JSON.stringify(read?.attributes)).not.toContain("trx_not_there")
  })
})
