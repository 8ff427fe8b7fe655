/**
 * Test support for suites that talk to the sandbox over real HTTP with raw requests (the conformance suite
 * checks the sandbox itself, so it does not go through our client).
 */
import { constants, publicEncrypt } from "node:crypto"
import { request } from "undici"
import { startSandbox, type RunningSandbox, type SandboxOptions } from "../../sandbox"
import { startWebhookReceiver } from "./webhook-receiver"

export type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string; body: any }

export class SandboxHarness {
  private token: string | null = null
  private tokenExpiresAt = 0
  constructor(readonly sandbox: RunningSandbox) {}

  get url() {
    return this.sandbox.url
  }
  get config() {
    return this.sandbox.config
  }
  /** The default terminal with every method and feature enabled. */
  get terminalId() {
    return "SBX-ALL-001"
  }

  async fetchToken(): Promise<string> {
    const res = await this.raw("POST", this.config.token_url, {
      form: { grant_type: "client_credentials", client_id: this.config.client_id, client_secret: this.config.client_secret },
    })
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${res.text}`)
    this.tokenExpiresAt = Date.now() + Number(res.body.expires_in) * 1000
    return res.body.access_token
  }

  /** The harness's token, fetched again before it expires (the sandbox's live 300 s; a slow machine runs a suite longer). */
  async bearer(): Promise<string> {
    if (!this.token || Date.now() > this.tokenExpiresAt - 30_000) this.token = await this.fetchToken()
    return this.token
  }

  /** A request with every header the gateway wants unless the test overrides it. */
  async raw(
    method: string,
    pathOrUrl: string,
    opts: { json?: unknown; body?: string; form?: Record<string, string>; headers?: Record<string, string | undefined> } = {},
  ): Promise<RawResponse> {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${this.url}${pathOrUrl}`
    const headers: Record<string, string> = { "user-agent": "pgs-conformance-tests" }
    let body: string | undefined
    if (opts.form) {
      headers["content-type"] = "application/x-www-form-urlencoded"
      body = new URLSearchParams(opts.form).toString()
    } else if (opts.json !== undefined || opts.body !== undefined) {
      headers["content-type"] = "application/json"
      body = opts.body ?? JSON.stringify(opts.json)
    }
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === undefined) delete headers[k]
      else headers[k] = v
    }
    const res = await request(url, { method: method as any, headers, body })
    const text = await res.body.text()
    let parsed: unknown = undefined
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = undefined
    }
    return { status: res.statusCode, headers: res.headers, text, body: parsed }
  }

  /** An authenticated merchant API call. */
  async api(method: string, path: string, json?: unknown, headers: Record<string, string | undefined> = {}): Promise<RawResponse> {
    const hasBody = json !== undefined
    return this.raw(method, path, {
      json,
      headers: { authorization: `Bearer ${await this.bearer()}`, ...(hasBody ? {} : { "content-type": "application/json" }), ...headers },
    })
  }

  async control(method: string, path: string, json?: unknown): Promise<RawResponse> {
    return this.raw(method, path, { json })
  }

  /** RSA-OAEP SHA-256 of one plain-text card field with the merchant public key, Base64 (what a merchant server does). */
  encrypt(plain: string): string {
    return publicEncrypt(
      { key: this.config.merchant_public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(plain),
    ).toString("base64")
  }

  encryptedCard(card: { number: string; cvv?: string; month?: string; year?: string }) {
    return {
      type: "card" as const,
      data: {
        encrypted_card_number: this.encrypt(card.number),
        encrypted_cvv: this.encrypt(card.cvv ?? "123"),
        encrypted_expiration_month: this.encrypt(card.month ?? "12"),
        encrypted_expiration_year: this.encrypt(card.year ?? String(new Date().getFullYear() + 2)),
      },
    }
  }

  testCard(scenario: string, brand: "VISA" | "MASTERCARD" = "VISA"): string {
    const card = this.config.test_cards.find((c) => c.scenario === scenario && c.brand === brand)
    if (!card) throw new Error(`no test card for ${brand} ${scenario}`)
    return card.number
  }

  /** The Bearer JWT the sandbox would sign this webhook body with. */
  signWebhook(body: string): Promise<string> {
    return this.sandbox.context.webhooks.sign(body)
  }

  async close() {
    await this.sandbox.close()
  }
}

export async function startHarness(options: SandboxOptions = {}): Promise<SandboxHarness> {
  return new SandboxHarness(await startSandbox({ port: 0, webhookTimeScale: 0.001, fingerprintWaitMs: 0, keys: runKeys(), ...options }))
}

/**
 * The keys every harness of this `npm test` shares (scripts/test.js makes them once): a sandbox otherwise makes three
 * RSA keys as it starts, 0.1–0.6 s of CPU each, and a run starts some hundred sandboxes. A test about keys passes
 * its own (`keys`) or makes another pair; run outside scripts/test.js, each sandbox makes its own as before.
 */
function runKeys(): SandboxOptions["keys"] {
  const json = process.env.PGS_TEST_SANDBOX_KEYS
  return json ? JSON.parse(json) : undefined
}

let referenceCounter = 0
/** A reference unique within the test run (1-40 characters). */
export const uniqueReference = (prefix = "ref") => `${prefix}-${Date.now().toString(36)}-${(referenceCounter++).toString(36)}`

export const BROWSER_INFO = {
  user_agent: "Mozilla/5.0 (X11; Linux x86_64) conformance",
  accept_header: "text/html,application/xhtml+xml",
  java_enabled: false,
  color_depth: 24,
  screen_height: 1080,
  screen_width: 1920,
  time_zone_offset: -60,
  language: "en-US",
}

/** Poll until `check` returns a truthy value or the deadline passes; never a fixed sleep. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000)
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const value = await check()
      if (value) return value
    } catch (error) {
      last = error
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 25))
  }
  throw new Error(`timed out waiting for ${opts.what ?? "condition"}${last ? `: ${String(last)}` : ""}`)
}

/** A sandbox whose webhooks go to a fresh local receiver; `close` stops both. */
export async function startHarnessWithReceiver(options: SandboxOptions = {}) {
  const h = await startHarness(options)
  const receiver = await startWebhookReceiver()
  await h.control("POST", "/_sandbox/webhooks", { url: receiver.url })
  return { h, receiver, close: async () => (await h.close(), await receiver.close()) }
}
