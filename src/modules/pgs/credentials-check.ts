/**
 * Are the gateway credentials good? One token request with a client of its own (a cached token would prove
 * nothing), classified into what a store developer must change: the credentials refused (PGS_CLIENT_ID /
 * PGS_CLIENT_SECRET), the realm or identity provider URL wrong (PGS_REALM / PGS_AUTH_URL), or the identity provider
 * not answering. Used at boot (one warning, the boot goes on) and by the admin's banner.
 */
import { isGatewayError } from "../../gateway"
import { PGS_ENV as ENV } from "../../config"
import { buildGatewayClient } from "./gateway"

export type CredentialsState = "ok" | "refused" | "wrong_url" | "unreachable" | "not_configured"

export type CredentialsCheck = {
  state: CredentialsState
  /** What to change, in a store developer's words, naming the variables; null when all is well. */
  message: string | null
  checked_at: string
}

function classify(error: unknown): { state: CredentialsState; message: string } {
  if (isGatewayError(error)) {
    if (error.type === "unauthorized" || error.type === "forbidden")
      return {
        state: "refused",
        message: `the gateway's identity provider refused the credentials: check ${ENV.clientId} and ${ENV.clientSecret} (and ${ENV.realm}) against the merchant details in the gateway dashboard. Until then every payment fails`,
      }
    if (error.type === "not_found")
      return {
        state: "wrong_url",
        message: `the gateway's identity provider has no token endpoint there: check ${ENV.authUrl} and ${ENV.realm}. Until then every payment fails`,
      }
  }
  return {
    state: "unreachable",
    message: `the gateway's identity provider did not answer (${error instanceof Error ? error.message : String(error)}): check ${ENV.authUrl}, or wait if the gateway is down. Payments fail while it is away`,
  }
}

export async function checkGatewayCredentials(rawOptions: unknown): Promise<CredentialsCheck> {
  const checked_at = new Date().toISOString()
  let built: ReturnType<typeof buildGatewayClient>
  try {
    built = buildGatewayClient(rawOptions)
  } catch (error) {
    return { state: "not_configured", message: (error as Error).message, checked_at }
  }
  try {
    await built.client.accessToken()
    return { state: "ok", message: null, checked_at }
  } catch (error) {
    return { ...classify(error), checked_at }
  } finally {
    await built.client.close()
  }
}
