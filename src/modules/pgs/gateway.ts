/**
 * The module's own gateway client, built once from the module options (the same `pgsOptions` the provider gets,
 * parsed by the provider's schema so the two never disagree). Built lazily: a store without PGS settings still
 * boots, and only the parts that need the gateway fail, with the option-by-option message.
 */
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
