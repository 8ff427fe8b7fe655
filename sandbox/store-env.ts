/**
 * The PGS_* environment a store needs to talk to this sandbox: the variables the development store's
 * medusa-config.ts reads (and a store developer's .env can copy). Used by the test harness and the demo.
 */
import type { SandboxConfigView } from "./controls"

export function storeEnvFor(config: SandboxConfigView): Record<string, string> {
  return {
    PGS_API_URL: config.base_url,
    PGS_AUTH_URL: config.auth_url,
    PGS_REALM: config.realm,
    PGS_CLIENT_ID: config.client_id,
    PGS_CLIENT_SECRET: config.client_secret,
    PGS_CLIENT_KEY: config.client_key,
    PGS_ENVIRONMENT: "test",
    PGS_MERCHANT_PUBLIC_KEY: config.merchant_public_key,
    PGS_WEBHOOK_PUBLIC_KEY: config.webhook_public_key,
    // The sandbox's terminals: everything enabled, and the payouts one.
    PGS_TERMINAL_ID: "SBX-ALL-001",
    PGS_PAYOUT_TERMINAL_ID: "SBX-PAYOUT-01",
  }
}
