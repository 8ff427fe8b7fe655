/**
 * Option `webhookReceiver` ({ port, host }; PGS_WEBHOOK_RECEIVER_PORT / _HOST in the example config): run the
 * dedicated webhook receiver (receiver.ts) on its own port. Unset: webhooks go to the Medusa route only.
 */
import { z } from "zod"

const receiverOptions = z
  .object({
    port: z.number({ message: "must be a port number (0 picks a free port)" }).int().min(0).max(65535),
    host: z.string().min(1).default("0.0.0.0"),
  })
  .strict()

export type WebhookReceiverOptions = z.infer<typeof receiverOptions>

export class WebhookReceiverOptionsError extends Error {
  override name = "WebhookReceiverOptionsError"
}

export function webhookReceiverFrom(rawOptions: unknown): WebhookReceiverOptions | null {
  const value = (rawOptions as { webhookReceiver?: unknown } | null | undefined)?.webhookReceiver
  if (value === undefined || value === null) return null
  const parsed = receiverOptions.safeParse(value)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((i) => `webhookReceiver${i.path.length ? "." + i.path.join(".") : ""} ${i.message}`)
  throw new WebhookReceiverOptionsError(
    `medusa-payment-pgs: ${problems.join("; ")}. Set PGS_WEBHOOK_RECEIVER_PORT to the port the gateway's webhooks should reach (e.g. 9100), or leave it unset to receive them on the Medusa route only`,
  )
}
