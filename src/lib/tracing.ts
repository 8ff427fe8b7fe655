/**
 * The plugin's spans, for stores that turn on Medusa's OpenTelemetry instrumentation (`registerOtel` in
 * instrumentation.ts; docs/tracing.md): each gateway call, webhook intake and event workflow is a span named by
 * what it does, with its status and duration. Only names the plugin chose go in (operation patterns such as
 * "GET /api/transactions/{id}", event names, outcomes, status codes): never a secret, a card field, an id-bearing
 * URL or its query. Through Medusa's Tracer (@medusajs/framework/telemetry, the OpenTelemetry API). Without an SDK
 * registered no span is made at all: the work runs as it is (measured: bench:client, bench:history).
 */
import { trace } from "@medusajs/framework/opentelemetry/api"
import { Tracer } from "@medusajs/framework/telemetry"

export const PGS_TRACER_NAME = "medusa-payment-pgs"

const tracer = new Tracer(PGS_TRACER_NAME)

export type SpanAttributes = Record<string, string | number | boolean>
export type SpanHandle = { set(attributes: SpanAttributes): void }

const OK = 1
const ERROR = 2

const NO_SPAN: SpanHandle = { set: () => undefined }

/**
 * Whether a store registered an OpenTelemetry SDK (registerOtel): the API's global provider is a proxy with no tracer
 * behind it until one is. Asked on every span, so an SDK registered after this module loaded is seen.
 */
function tracingOn(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?(name: string): unknown }
  // A provider that is not the API's proxy: its spans may record.
  return typeof provider.getDelegateTracer !== "function" || provider.getDelegateTracer(PGS_TRACER_NAME) !== undefined
}

/**
 * Runs `work` inside a span; its error marks the span (by the error's class name only) and is rethrown. With tracing
 * off, `work` runs without one: the no-op span's wrapper cost an async frame per gateway call for nothing.
 */
export function inSpan<T>(name: string, attributes: SpanAttributes, work: (span: SpanHandle) => Promise<T>): Promise<T> {
  if (!tracingOn()) {
    try {
      return work(NO_SPAN)
    } catch (error) {
      return Promise.reject(error)
    }
  }
  return tracer.trace(name, async (span) => {
    const recording = span.isRecording()
    const handle: SpanHandle = { set: (a) => recording && span.setAttributes(a) }
    if (recording) span.setAttributes(attributes)
    try {
      const result = await work(handle)
      span.setStatus({ code: OK })
      return result
    } catch (error) {
      if (recording) {
        const kind = error instanceof Error ? error.name : "Error"
        span.setAttributes({ "pgs.error": kind })
        span.setStatus({ code: ERROR, message: kind })
      }
      throw error
    } finally {
      span.end()
    }
  })
}
