/**
 * The test store: a minimal Medusa app the HTTP suites boot through medusaIntegrationTestRunner.
 * The database URL comes from the runner (DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD, see scripts/test.js).
 */
import { defineConfig, loadEnv } from "@medusajs/framework/utils"

loadEnv("test", process.cwd())

export default defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    http: {
      jwtSecret: "test-jwt-secret",
      cookieSecret: "test-cookie-secret",
      storeCors: "*",
      adminCors: "*",
      authCors: "*",
    },
  },
  admin: { disable: true },
})
