/**
 * The development store of this repository: the plugin's own `src/` loaded as the Medusa project, so the HTTP
 * suites (medusaIntegrationTestRunner, cwd = repository root), the benchmarks and the demo run the TypeScript
 * sources without a build. The gateway settings come from PGS_* variables (the test harness points them at a
 * sandbox it starts). A store that installs the plugin registers it as in README, "Installing into a store".
 */
import { defineConfig, loadEnv } from "@medusajs/framework/utils"
import { pgsOptionsFromEnv } from "./src/config"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

/**
 * The same object goes to the plugin's module (webhooks, routes) and to the payment providers, read from PGS_*
 * variables exactly as a store's medusa-config does (README "Installing into a store"), with development defaults.
 * PGS_TIMEOUT_*_MS is set only by the test harness (a lost management answer is given up on in 2 s, not 45 s).
 */
export const pgsOptions = pgsOptionsFromEnv({
  PGS_REALM: "uat",
  PGS_TERMINAL_ID: "SBX-ALL-001",
  PGS_STORE_URL: "http://localhost:8000",
  PGS_BACKEND_URL: "http://localhost:9000",
  ...withoutEmpty(process.env),
})

function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]))
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
    // Medusa sets SameSite=Lax on the session cookie only in production; the demo's cookie behaves the same, so a
    // form posted from another site never carries an admin's session (docs/admin.md, CSRF).
    cookieOptions: { sameSite: "lax" },
  },
  // The dashboard is served only where asked for (the demo): test boots skip its build. storefrontUrl is the host of
  // the dashboard's "Copy payment link" ({storefrontUrl}/payment-collection/{id}?order_id=…; docs/money-after-checkout.md):
  // the storefront's, which PGS_STORE_URL names too.
  admin: { disable: process.env.MEDUSA_ADMIN !== "true", storefrontUrl: process.env.MEDUSA_STOREFRONT_URL || process.env.PGS_STORE_URL },
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
