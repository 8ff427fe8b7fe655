/**
 * The plugin's span wrapper with tracing off and on, without a store: off, the work runs as it is and no span is
 * made (Medusa's Tracer is never asked); on (a tracer provider registered, as registerOtel does), every call is a span.
 */
import { trace } from "@medusajs/framework/opentelemetry/api"
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@medusajs/framework/opentelemetry/sdk-trace-node"
import { Tracer } from "@medusajs/framework/telemetry"
import { inSpan, PGS_TRACER_NAME } from "../tracing"

afterEach(() => jest.restoreAllMocks())
// Not between the tests: disable() replaces the API's proxy provider, which the plugin's tracer holds since it loaded.
afterAll(() => trace.disable())

describe("the plugin's spans", () => {
  it("runs the work without making a span when no OpenTelemetry SDK is registered: results, rejections and throws pass through", async () => {
    const traced = jest.spyOn(Tracer.prototype, "trace")
    const set = jest.fn()
    await expect(inSpan("pgs.test", { "pgs.n": 1 }, async (span) => (span.set({ "pgs.m": 2 }), set(), "result"))).resolves.toBe("result")
    await expect(inSpan("pgs.test", {}, async () => Promise.reject(new TypeError("refused")))).rejects.toThrow(TypeError)
    // A work function that throws before returning its promise: a rejection, as inside an async span.
    const throwing = (() => {
      throw new RangeError("at once")
    }) as () => Promise<never>
    await expect(inSpan("pgs.test", {}, throwing)).rejects.toThrow(RangeError)
    expect(set).toHaveBeenCalledTimes(1)
    expect(traced).not.toHaveBeenCalled()
  })

  it("makes a span with its attributes and status once a tracer provider is registered after the plugin loaded", async () => {
    const exporter = new InMemorySpanExporter()
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
    expect(trace.setGlobalTracerProvider(provider)).toBe(true)
    await expect(inSpan("pgs.test ok", { "pgs.n": 1 }, async (span) => (span.set({ "pgs.m": 2 }), "result"))).resolves.toBe("result")
    await expect(inSpan("pgs.test failed", {}, async () => Promise.reject(new TypeError("refused")))).rejects.toThrow(TypeError)
    const spans = exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === PGS_TRACER_NAME)
    expect(spans.map((s) => [s.name, s.attributes, s.status.code])).toEqual([
      ["pgs.test ok", { "pgs.n": 1, "pgs.m": 2 }, 1],
      ["pgs.test failed", { "pgs.error": "TypeError" }, 2],
    ])
  })
})
