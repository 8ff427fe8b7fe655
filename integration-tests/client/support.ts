/** Client-spec support: a PgsClient wired to a harness sandbox, and request bodies built with the client's own helpers. */
import { PgsClient, type PgsClientOptions } from "../../src/gateway"
import type { AuthorizeRequest } from "../../src/gateway/schemas"
import { BROWSER_INFO, uniqueReference, type SandboxHarness } from "../support/sandbox"

export const RETURN_URL = "https://shop.example/return"

export function clientFor(h: SandboxHarness, overrides: Partial<PgsClientOptions> = {}): PgsClient {
  return new PgsClient({
    baseUrl: h.url,
    authUrl: h.config.auth_url,
    realm: h.config.realm,
    clientId: h.config.client_id,
    clientSecret: h.config.client_secret,
    merchantPublicKey: h.config.merchant_public_key,
    // Fast backoff keeps fault tests short; the policy itself is unit-tested.
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 },
    ...overrides,
  })
}

export function cardAuthorize(h: SandboxHarness, client: PgsClient, scenario = "frictionless_approved", overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    reference: uniqueReference("cli"),
    terminal_id: h.terminalId,
    description: "Client test order",
    currency: "EUR",
    amount: 1999,
    transaction_type: "PURCHASE",
    payment_method: client.encryption.card({ number: h.testCard(scenario), cvv: "123", expirationMonth: 12, expirationYear: new Date().getFullYear() + 2 }),
    browser_info: BROWSER_INFO,
    return_url: RETURN_URL,
    ...overrides,
  }
}

export async function stats(h: SandboxHarness): Promise<{ tokenRequests: number; requests: Record<string, number> }> {
  return (await h.control("GET", "/_sandbox/stats")).body
}

export type LedgerEntry = { operation: string; transaction_type: string; transaction_id: string; parent_id: string | null; reference: string; amount: number; replay: boolean; status: string | null }

export async function ledgerFor(h: SandboxHarness, reference: string): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = (await h.control("GET", "/_sandbox/ledger")).body.entries
  return entries.filter((e) => e.reference === reference)
}

export async function fault(h: SandboxHarness, rule: { target: string; kind: string; phase?: "before" | "after"; count?: number; latency_ms?: number; status?: number }) {
  const res = await h.control("POST", "/_sandbox/faults", rule)
  if (res.status !== 201) throw new Error(`fault not accepted: ${res.status} ${res.text}`)
  return res.body
}

export async function caught(promise: Promise<unknown>): Promise<any> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected the call to fail")
}
