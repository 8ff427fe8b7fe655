/**
 * The development store of this repository: the plugin's own `src/` loaded as the Medusa project, so the HTTP
 * suites (medusaIntegrationTestRunner, cwd = repository root), the benchmarks and the demo run the TypeScript
 * sources without a build. The gateway settings come from PGS_* variables (the test harness points them at a
 * sandbox it starts). A store that installs the plugin registers it as in README, "Installing into a store".
 */
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

const env = (name: string) => process.env[name] || undefined

/** The same object goes to the plugin's module (webhooks, routes) and to the payment providers. */
/** Per-call-kind timeouts from PGS_TIMEOUT_{READ,WRITE,MANAGE,TOKEN}_MS (the test harness shortens them). */
function timeoutsFromEnv() {
  const kinds = ["read", "write", "manage", "token"] as const
  const entries = kinds.flatMap((k) => (env(`PGS_TIMEOUT_${k.toUpperCase()}_MS`) ? [[k, Number(env(`PGS_TIMEOUT_${k.toUpperCase()}_MS`))]] : []))
  return entries.length ? Object.fromEntries(entries) : undefined
}

export const pgsOptions = {
  apiUrl: env("PGS_API_URL"),
  authUrl: env("PGS_AUTH_URL"),
  realm: env("PGS_REALM") ?? "uat",
  clientId: env("PGS_CLIENT_ID"),
  clientSecret: env("PGS_CLIENT_SECRET"),
  clientKey: env("PGS_CLIENT_KEY"),
  environment: (env("PGS_ENVIRONMENT") ?? "test") as "test" | "production",
  merchantPublicKey: env("PGS_MERCHANT_PUBLIC_KEY"),
  webhookPublicKey: env("PGS_WEBHOOK_PUBLIC_KEY"),
  defaultTerminalId: env("PGS_TERMINAL_ID") ?? "SBX-ALL-001",
  defaultTransactionType: (env("PGS_TRANSACTION_TYPE") ?? "AUTHORIZE") as "AUTHORIZE" | "PURCHASE",
  // Payouts (admin /admin/pgs/payouts) go to this terminal unless a request names one.
  payoutTerminalId: env("PGS_PAYOUT_TERMINAL_ID"),
  storeUrl: env("PGS_STORE_URL") ?? "http://localhost:8000",
  backendUrl: env("PGS_BACKEND_URL") ?? "http://localhost:9000",
  // Sent as originator_url with alternative payments (else the gateway uses the terminal's website).
  originatorUrl: env("PGS_ORIGINATOR_URL"),
  // Raw card fields on this server only for a merchant in PCI DSS scope SAQ D ("SAQ_D"); unset everywhere else.
  rawCardDataPciScope: env("PGS_RAW_CARD_PCI_SCOPE") as "SAQ_D" | undefined,
  // The dedicated webhook receiver on its own port (README "Webhooks at volume"); unset: the Medusa route only.
  webhookReceiver: env("PGS_WEBHOOK_RECEIVER_PORT")
    ? { port: Number(env("PGS_WEBHOOK_RECEIVER_PORT")), host: env("PGS_WEBHOOK_RECEIVER_HOST") ?? "0.0.0.0" }
    : undefined,
  // Only the test harness sets this (a lost management answer is given up on in 2 s instead of 45 s).
  timeouts: timeoutsFromEnv(),
}

/**
 * With REDIS_URL (the demo's and a growing store's setup) events, workflows, locks and the cache go through
 * Redis, so the HTTP server and a worker (MEDUSA_WORKER_MODE=server / worker) can run as separate processes.
 */
const redisUrl = process.env.REDIS_URL
const redisModules = redisUrl
  ? [
      { resolve: "@medusajs/medusa/event-bus-redis", options: { redisUrl } },
      { resolve: "@medusajs/medusa/workflow-engine-redis", options: { redis: { url: redisUrl } } },
      { resolve: "@medusajs/medusa/locking", options: { providers: [{ resolve: "@medusajs/medusa/locking-redis", id: "locking-redis", is_default: true, options: { redisUrl } }] } },
      { resolve: "@medusajs/medusa/cache-redis", options: { redisUrl } },
    ]
  : []

export default defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    redisUrl,
    workerMode: (process.env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server" | undefined) ?? "shared",
    http: {
      jwtSecret: process.env.JWT_SECRET || "dev-jwt-secret",
      cookieSecret: process.env.COOKIE_SECRET || "dev-cookie-secret",
      storeCors: process.env.STORE_CORS || "*",
      adminCors: process.env.ADMIN_CORS || "*",
      authCors: process.env.AUTH_CORS || "*",
    },
  },
  // The dashboard is served only where asked for (the demo): test boots skip its build.
  admin: { disable: process.env.MEDUSA_ADMIN !== "true" },
  modules: [
    ...redisModules,
    { resolve: "./src/modules/pgs", options: pgsOptions },
    {
      resolve: "@medusajs/medusa/payment",
      options: {
        providers: [{ resolve: "./src/providers/pgs", id: "pgs", options: pgsOptions }],
      },
    },
  ],
})
