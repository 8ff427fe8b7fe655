/**
 * The module's own gateway client, built once from the module options (the same `pgsOptions` the provider gets,
 * parsed by the provider's schema so the two never disagree). Built lazily: a store without PGS settings still
 * boots, and only the parts that need the gateway fail, with the option-by-option message.
 */
import { z } from "zod"
import { PgsClient } from "../../gateway"
import { parseOptions, type PgsProviderOptions } from "../../providers/pgs/options"

export class PgsNotConfiguredError extends Error {
  override name = "PgsNotConfiguredError"
}

export function buildGatewayClient(rawOptions: unknown): { client: PgsClient; options: PgsProviderOptions } {
  const options = parseOptions(rawOptions)
  if (!options.webhookPublicKey)
    throw new PgsNotConfiguredError("medusa-payment-pgs: webhookPublicKey is missing: set PGS_WEBHOOK_PUBLIC_KEY to the gateway's webhook signing key (PEM)")
  const client = new PgsClient({
    baseUrl: options.apiUrl,
    authUrl: options.authUrl,
    realm: options.realm,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    merchantPublicKey: options.merchantPublicKey,
    webhookPublicKeys: options.webhookPublicKey,
    userAgentSuffix: "medusa/2.21.2",
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
  })
  return { client, options }
}

/**
 * The terminal payouts go to when a request names none: option `payoutTerminalId` (PGS_PAYOUT_TERMINAL_ID). Kept
 * apart from the provider's options, which the payment providers parse (and which drop keys they do not know).
 */
const payoutOptions = z.object({ payoutTerminalId: z.string().min(5).max(20).optional() })

export function payoutTerminalFrom(rawOptions: unknown): string | null {
  const value = (rawOptions as { payoutTerminalId?: unknown } | null | undefined)?.payoutTerminalId
  if (value === undefined || value === null || value === "") return null
  const parsed = payoutOptions.safeParse({ payoutTerminalId: value })
  if (!parsed.success)
    throw new PgsNotConfiguredError("medusa-payment-pgs: payoutTerminalId must be 5 to 20 characters: set PGS_PAYOUT_TERMINAL_ID to the payout terminal from the gateway dashboard, or leave it unset and name terminal_id in each payout")
  return parsed.data.payoutTerminalId ?? null
}
