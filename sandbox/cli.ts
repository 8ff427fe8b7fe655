/**
 * `medusa-payment-pgs sandbox [--port N] [--host H] [--realm uat|production] [--keys-dir DIR]
 *   [--client-id ID] [--client-secret S] [--client-key K] [--token-ttl S] [--webhook-time-scale F]
 *   [--event-names specific|generic] [--tokenization-payload nested|flat] [--webhook URL] [--log]`
 */
import { parseArgs } from "node:util"
import { keysFromDir } from "./core/keys"
import { startSandbox } from "./server"

const USAGE = `Usage: medusa-payment-pgs sandbox [options]
  --port N                  port to listen on (0 picks a free one; default 4010)
  --host H                  interface (default 127.0.0.1)
  --realm R                 uat (300 s tokens, default) or production (60 s tokens)
  --keys-dir DIR            keep the RSA keys in DIR so they survive restarts
  --client-id / --client-secret / --client-key   fixed merchant credentials
  --token-ttl S             token lifetime in seconds
  --webhook-time-scale F    multiply webhook retry delays by F (e.g. 0.01)
  --event-names specific|generic
  --tokenization-payload nested|flat
  --webhook URL             register a webhook endpoint at start (repeatable)
  --log                     log every request`

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string" },
      realm: { type: "string" },
      "keys-dir": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "client-key": { type: "string" },
      "token-ttl": { type: "string" },
      "webhook-time-scale": { type: "string" },
      "event-names": { type: "string" },
      "tokenization-payload": { type: "string" },
      webhook: { type: "string", multiple: true },
      log: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const number = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined
    const n = Number(v)
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got "${v}"`)
    return n
  }
  const oneOf = <T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T | undefined => {
    if (v === undefined) return undefined
    if (!allowed.includes(v as T)) throw new Error(`--${name} must be one of ${allowed.join(", ")}, got "${v}"`)
    return v as T
  }
  const sandbox = await startSandbox({
    port: number("port", values.port),
    host: values.host,
    realm: values.realm,
    keys: values["keys-dir"] ? keysFromDir(values["keys-dir"]) : undefined,
    clientId: values["client-id"],
    clientSecret: values["client-secret"],
    clientKey: values["client-key"],
    tokenTtlSeconds: number("token-ttl", values["token-ttl"]),
    webhookTimeScale: number("webhook-time-scale", values["webhook-time-scale"]),
    eventNames: oneOf("event-names", values["event-names"], ["specific", "generic"] as const),
    tokenizationPayload: oneOf("tokenization-payload", values["tokenization-payload"], ["nested", "flat"] as const),
    log: values.log,
  })
  for (const url of values.webhook ?? []) sandbox.context.webhooks.register(sandbox.config.merchant_id, url)
  console.log(`PGS sandbox listening on ${sandbox.url}`)
  console.log(`  config:     ${sandbox.url}/_sandbox/config`)
  console.log(`  dashboard:  ${sandbox.url}/`)
  console.log(`  client_id:  ${sandbox.config.client_id}   realm: ${sandbox.config.realm}   terminal: ${sandbox.config.terminals[0].terminal_id}`)
  const stop = async () => {
    await sandbox.close()
    process.exit(0)
  }
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
