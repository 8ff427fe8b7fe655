/**
 * The one way a gateway client is made from the plugin's options (same user agent, same logging), and the one
 * client per options the providers, the module (webhooks, payouts, admin) and the jobs share: one token cache and
 * one connection pool per process. The dedicated webhook receiver runs in its own thread and only verifies, with
 * the same parsed webhook key.
 */
import { createHash } from "node:crypto"
import { PgsClient, type GatewayTracer } from "../../gateway"
import { inSpan } from "../../lib/tracing"
import { parseOptions, PgsNotConfiguredError, type PgsProviderOptions } from "./options"

export { PgsNotConfiguredError, payoutTerminalFrom } from "./options"

const USER_AGENT_SUFFIX = "medusa/2.21"

/** Each gateway call as a span "pgs.gateway GET /api/transactions/{id}" (src/lib/tracing.ts). */
const traceGatewayCall: GatewayTracer = (operation, kind, run) =>
  inSpan(`pgs.gateway ${operation}`, { "pgs.operation": operation, "pgs.call_kind": kind }, (span) =>
    run(({ statusCode, attempts }) => span.set({ "http.response.status_code": statusCode ?? 0, "pgs.attempts": attempts })),
  )

export type ClientLogger = { warn(message: string): void; error(message: string): void }

export function newGatewayClient(options: PgsProviderOptions, logger?: ClientLogger): PgsClient {
  return new PgsClient({
    baseUrl: options.apiUrl,
    authUrl: options.authUrl,
    realm: options.realm,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    merchantPublicKey: options.merchantPublicKey,
    webhookPublicKeys: options.webhookPublicKey,
    userAgentSuffix: USER_AGENT_SUFFIX,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    tracer: traceGatewayCall,
    // Every body the plugin sends is built from what it has already checked (options at boot, route bodies, session
    // data); the gateway checks it again and names a refused field in its 422.
    validateRequests: false,
    ...(logger
      ? {
          // Only warnings and errors reach Medusa's log, so the client is spared the debug entries' redaction.
          logDebug: false,
          logger: (entry) => {
            if (entry.level === "error") logger.error(`[pgs] ${entry.operation}: ${entry.message}`)
            else if (entry.level === "warn") logger.warn(`[pgs] ${entry.operation}: ${entry.message}`)
          },
        }
      : {}),
  })
}

/*
 * Keyed by the parsed options' content, not the object: Medusa hands each provider class, and the module, the options
 * it was given, and they need not be one object (FRAMEWORK-NOTES 27). Equal options, one client.
 */
const shared = new Map<string, PgsClient>()
const keyOf = (options: PgsProviderOptions) => createHash("sha256").update(JSON.stringify(options)).digest("hex")

export function sharedGatewayClient(options: PgsProviderOptions, logger?: ClientLogger): PgsClient {
  const key = keyOf(options)
  let client = shared.get(key)
  if (!client) shared.set(key, (client = newGatewayClient(options, logger)))
  return client
}

/** At shutdown: closes the shared client and forgets it, so a later start in this process makes a fresh one. */
export async function closeSharedGatewayClient(client: PgsClient): Promise<void> {
  for (const [key, value] of shared) if (value === client) shared.delete(key)
  await client.close()
}

/** The options as the module uses them: the same parse as the providers, and webhooks need their key. */
export function moduleGatewayOptions(rawOptions: unknown): PgsProviderOptions {
  const options = parseOptions(rawOptions)
  if (!options.webhookPublicKey)
    throw new PgsNotConfiguredError("medusa-payment-pgs: webhookPublicKey is missing: set PGS_WEBHOOK_PUBLIC_KEY to the gateway's webhook signing key (PEM)")
  return options
}

/** A client of its own (not shared), for a check that must not reuse a cached token: boot, the admin's connection test. */
export function buildGatewayClient(rawOptions: unknown, logger?: ClientLogger): { client: PgsClient; options: PgsProviderOptions } {
  const options = moduleGatewayOptions(rawOptions)
  return { client: newGatewayClient(options, logger), options }
}
