/**
 * The plugin's spans, for stores that turn on Medusa's OpenTelemetry instrumentation (`registerOtel` in
 * instrumentation.ts; docs/tracing.md): each gateway call, webhook intake and event workflow is a span named by
 * what it does, with its status and duration. Only names the plugin chose go in (operation patterns such as
 * "GET /api/transactions/{id}", event names, outcomes, status codes): never a secret, a card field, an id-bearing
 * URL or its query. Through Medusa's Tracer (@medusajs/framework/telemetry, the OpenTelemetry API): without an SDK
 * registered every span is a no-op — the cost of "off" is one no-op call (measured: bench:history).
 */
import { Tracer } from "@medusajs/framework/telemetry"

export const PGS_TRACER_NAME = "medusa-payment-pgs"

const tracer = new Tracer(PGS_TRACER_NAME)

export type SpanAttributes = Record<string, string | number | boolean>
export type SpanHandle = { set(attributes: SpanAttributes): void }

const OK = 1
const ERROR = 2

/** Runs `work` inside a span; its error marks the span (by the error's class name only) and is rethrown. */
export function inSpan<T>(name: string, attributes: SpanAttributes, work: (span: SpanHandle) => Promise<T>): Promise<T> {
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
