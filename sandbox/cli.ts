/**
 * `medusa-payment-pgs sandbox [--write-env FILE [--backend-url URL] [--store-url URL]] [--port N] [--host H] [--realm uat|production] [--keys-dir DIR] [--state-dir DIR]
 *   [--client-id ID] [--client-secret S] [--client-key K] [--token-ttl S] [--webhook-time-scale F]
 *   [--event-names specific|generic] [--tokenization-payload nested|flat] [--settle-payouts-after S] [--webhook URL] [--log]`
 */
import fs from "node:fs"
import path from "node:path"
import { parseArgs } from "node:util"
import { credentialsFromDir } from "./core/credentials"
import { keysFromDir } from "./core/keys"
import { readEnvValue, updateEnvFile } from "./env-file"
import { storeEnvFor } from "./store-env"
import { startSandbox } from "./server"

const USAGE = `Usage: medusa-payment-pgs sandbox [options]
  --write-env FILE          write the store's PGS_* variables into FILE (e.g. .env), keep keys and credentials in
                            .pgs-sandbox/ beside it, and send webhooks to {PGS_BACKEND_URL}/hooks/pgs/webhooks;
                            a missing FILE starts as a copy of FILE.template when there is one (.env.template)
  --backend-url URL         with --write-env: the Medusa server's URL (PGS_BACKEND_URL; default http://localhost:9000)
  --store-url URL           with --write-env: the storefront's URL (PGS_STORE_URL; default http://localhost:8000)
  --port N                  port to listen on (0 picks a free one; default 4010)
  --host H                  interface (default 127.0.0.1)
  --realm R                 uat (300 s tokens, default) or production (60 s tokens)
  --keys-dir DIR            keep the RSA keys and the client id, secret and key in DIR so they survive restarts
  --state-dir DIR           keep the gateway's state in DIR/sandbox-state.json and load it at start: transactions,
                            sessions, saved cards, customers, payouts, 3-D Secure records, queued webhooks, endpoints;
                            a restart on the same DIR answers for payments made before it (a kill -9 loses at most
                            the last 100 ms); keys and credentials go there too unless --keys-dir or --write-env
                            places them
  --client-id / --client-secret / --client-key   fixed merchant credentials
  --token-ttl S             token lifetime in seconds
  --webhook-time-scale F    multiply webhook retry delays by F (e.g. 0.01)
  --event-names specific|generic
  --tokenization-payload nested|flat
  --settle-payouts-after S  approve a payout still pending S seconds after it became pending, with its webhook
  --webhook URL             register a webhook endpoint at start (repeatable)
  --log                     log every request`

/** Store values --write-env adds only where the file has none: a starter's storefront and backend on localhost. */
const STORE_DEFAULTS = { PGS_STORE_URL: "http://localhost:8000", PGS_BACKEND_URL: "http://localhost:9000" }

/** Everything the command line offers: `npx medusa-payment-pgs --help`. */
export const HELP = `medusa-payment-pgs — the PGS payment plugin for Medusa, and its local sandbox gateway.

Commands:
  sandbox [options]         run the sandbox: a stateful local PGS to develop and test a store against
  help, --help, -h          this text
  version, --version, -v    the plugin's version

${USAGE}

Examples:
  npx medusa-payment-pgs sandbox --write-env .env
  npx medusa-payment-pgs sandbox --write-env .env --backend-url http://localhost:9100 --store-url http://localhost:3100
  npx medusa-payment-pgs sandbox --port 0 --log`

const httpUrl = (name: string, v: string | undefined) => {
  if (v === undefined) return undefined
  let url: URL
  try {
    url = new URL(v)
  } catch {
    throw new Error(`--${name} must be an http(s) URL such as http://localhost:9000, got "${v}"`)
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`--${name} must be an http(s) URL, got "${v}"`)
  return v.replace(/\/+$/, "")
}

export async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: "string", default: "4010" },
      host: { type: "string" },
      realm: { type: "string" },
      "keys-dir": { type: "string" },
      "state-dir": { type: "string" },
      "write-env": { type: "string" },
      "backend-url": { type: "string" },
      "store-url": { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      "client-key": { type: "string" },
      "token-ttl": { type: "string" },
      "webhook-time-scale": { type: "string" },
      "event-names": { type: "string" },
      "tokenization-payload": { type: "string" },
      "settle-payouts-after": { type: "string" },
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
  const seconds = (s: number | undefined) => (s === undefined ? undefined : Math.round(s * 1000))
  const oneOf = <T extends string>(name: string, v: string | undefined, allowed: readonly T[]): T | undefined => {
    if (v === undefined) return undefined
    if (!allowed.includes(v as T)) throw new Error(`--${name} must be one of ${allowed.join(", ")}, got "${v}"`)
    return v as T
  }
  const envFile = values["write-env"] && path.resolve(values["write-env"])
  const urls = { PGS_BACKEND_URL: httpUrl("backend-url", values["backend-url"]), PGS_STORE_URL: httpUrl("store-url", values["store-url"]) }
  if (!envFile && (urls.PGS_BACKEND_URL || urls.PGS_STORE_URL)) throw new Error("--backend-url and --store-url go with --write-env FILE (they are written into it)")
  const givenUrls = Object.fromEntries(Object.entries(urls).filter((e): e is [string, string] => !!e[1]))
  const stateDir = values["state-dir"] && path.resolve(values["state-dir"])
  // Saved payments need the same keys and credentials to be any use: a state dir keeps them unless told otherwise.
  const keysDir = values["keys-dir"] ?? (envFile ? path.join(path.dirname(envFile), ".pgs-sandbox") : stateDir)
  const given = { clientId: values["client-id"], clientSecret: values["client-secret"], clientKey: values["client-key"] }
  const sandbox = await startSandbox({
    port: number("port", values.port),
    host: values.host,
    realm: oneOf("realm", values.realm, ["uat", "production"] as const),
    keys: keysDir ? keysFromDir(keysDir) : undefined,
    ...(keysDir ? credentialsFromDir(keysDir, given) : given),
    tokenTtlSeconds: number("token-ttl", values["token-ttl"]),
    webhookTimeScale: number("webhook-time-scale", values["webhook-time-scale"]),
    eventNames: oneOf("event-names", values["event-names"], ["specific", "generic"] as const),
    tokenizationPayload: oneOf("tokenization-payload", values["tokenization-payload"], ["nested", "flat"] as const),
    payoutSettleAfterMs: seconds(number("settle-payouts-after", values["settle-payouts-after"])),
    log: values.log,
    stateDir,
  })
  const webhooks = values.webhook ?? []
  if (envFile) {
    // A starter's `.env.template` (dtc-starter) is where its `.env` begins: copying it over later would drop our lines.
    const template = `${envFile}.template`
    if (!fs.existsSync(envFile) && fs.existsSync(template) && startFromTemplate(envFile, template)) console.log(`Started ${envFile} from ${template}`)
    const changed = updateEnvFile(envFile, { ...storeEnvFor(sandbox.config), ...givenUrls }, { ...STORE_DEFAULTS, ...givenUrls })
    console.log(changed.length ? `Wrote ${changed.join(", ")} to ${envFile}` : `${envFile} is up to date`)
    if (!webhooks.length) webhooks.push(`${readEnvValue(envFile, "PGS_BACKEND_URL")?.replace(/\/+$/, "")}/hooks/pgs/webhooks`)
  }
  for (const url of webhooks) sandbox.context.webhooks.register(sandbox.config.merchant_id, url)
  console.log(`PGS sandbox listening on ${sandbox.url}`)
  console.log(`  config:     ${sandbox.url}/_sandbox/config`)
  console.log(`  dashboard:  ${sandbox.url}/`)
  console.log(`  client_id:  ${sandbox.config.client_id}   realm: ${sandbox.config.realm}   terminal: ${sandbox.config.terminals[0].terminal_id}`)
  for (const url of webhooks) console.log(`  webhooks:   ${url}`)
  if (stateDir) console.log(`  state:      ${stateDir} (${sandbox.context.store.transactions.size} transactions kept)`)
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

/**
 * A new `.env` from its template, readable by its owner only (it will hold secrets), and only while it is still
 * missing: never over one another process wrote meanwhile, nor through a dangling link. False when it appeared.
 */
function startFromTemplate(envFile: string, template: string): boolean {
  let text: Buffer
  try {
    text = fs.readFileSync(template)
  } catch (error) {
    throw new Error(`--write-env: ${template} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`)
  }
  try {
    fs.writeFileSync(envFile, text, { flag: "wx", mode: 0o600 })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false
    throw error
  }
}
