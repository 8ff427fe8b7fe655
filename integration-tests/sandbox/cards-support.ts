/**
 * Helpers for the card and 3-D Secure conformance specs: a card authorize body, and a tiny HTML form reader
 * so the tests drive the simulator and ACS pages with plain HTTP, like a browser without script would.
 */
import { createHash } from "node:crypto"
import { BROWSER_INFO, uniqueReference, type RawResponse, type SandboxHarness } from "../support/sandbox"

export const RETURN_URL = "https://shop.example/return"
export const ERROR_URL = "https://shop.example/error"

export function authorizeCard(h: SandboxHarness, overrides: Record<string, unknown> = {}): Promise<RawResponse> {
  return h.api("POST", "/api/transactions/authorize", {
    reference: uniqueReference("card"),
    terminal_id: h.terminalId,
    description: "Card order",
    currency: "EUR",
    amount: 1999,
    transaction_type: "PURCHASE",
    payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved") }),
    browser_info: BROWSER_INFO,
    return_url: RETURN_URL,
    ...overrides,
  })
}

/** A card whose every field is Base64 but not decryptable with the merchant key. */
export const undecryptableCard = () => ({
  type: "card" as const,
  data: {
    encrypted_card_number: Buffer.from("not encrypted").toString("base64"),
    encrypted_cvv: Buffer.from("123").toString("base64"),
    encrypted_expiration_month: Buffer.from("12").toString("base64"),
    encrypted_expiration_year: Buffer.from("2040").toString("base64"),
  },
})

export type HtmlForm = { id: string | null; action: string; method: string; fields: Record<string, string> }

const attr = (tag: string, name: string) => {
  const m = new RegExp(`${name}="([^"]*)"`, "i").exec(tag)
  return m ? unescapeHtml(m[1]) : null
}
const unescapeHtml = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

export function parseForms(html: string): HtmlForm[] {
  const forms: HtmlForm[] = []
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const fields: Record<string, string> = {}
    for (const input of m[2].matchAll(/<input\b[^>]*>/gi)) {
      const name = attr(input[0], "name")
      if (name) fields[name] = attr(input[0], "value") ?? ""
    }
    forms.push({ id: attr(m[1], "id"), action: attr(m[1], "action") ?? "", method: (attr(m[1], "method") ?? "GET").toUpperCase(), fields })
  }
  return forms
}

export function formById(html: string, id: string): HtmlForm {
  const form = parseForms(html).find((f) => f.id === id)
  if (!form) throw new Error(`no form #${id} in:\n${html}`)
  return form
}

/** Submit a form the way a browser does (urlencoded POST, no bearer token). */
export function submit(h: SandboxHarness, form: HtmlForm, extra: Record<string, string> = {}): Promise<RawResponse> {
  return h.raw(form.method, form.action, { form: { ...form.fields, ...extra } })
}

export const decodeToken = (token: string) => JSON.parse(Buffer.from(token, "base64").toString("utf8"))
export const decodeBase64Json = (value: string) => JSON.parse(Buffer.from(value, "base64url").toString("utf8"))
export const base64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64")

/** The sandbox's wallet-one token format (see sandbox/cards/wallet-one.ts). */
export function walletOneToken(details: {
  pan: string
  authMethod: "PAN_ONLY" | "CRYPTOGRAM_3DS"
  cardNetwork?: string
  cryptogram?: string
  expirationYear?: number
}): string {
  const signedMessage = JSON.stringify({
    cardNetwork: details.cardNetwork ?? "VISA",
    paymentMethodDetails: {
      pan: details.pan,
      expirationMonth: 12,
      expirationYear: details.expirationYear ?? new Date().getFullYear() + 3,
      authMethod: details.authMethod,
      ...(details.cryptogram ? { cryptogram: details.cryptogram, eciIndicator: "05" } : {}),
    },
  })
  return base64({
    protocolVersion: "ECv2",
    signature: createHash("sha256").update(signedMessage).digest("base64"),
    intermediateSigningKey: { signedKey: "sandbox-signed-key", signatures: ["sandbox-signature"] },
    signedMessage,
  })
}

/** The sandbox's full record of a transaction (control route), e.g. to read authentication_status. */
export async function record(h: SandboxHarness, id: string) {
  const res = await h.control("GET", `/_sandbox/transactions/${id}`)
  return res.body.record
}

/** The merchant's request-authentication call after the fingerprint step. */
export function requestAuthentication(h: SandboxHarness, action: { token: string; payment_data: string }, fingerprint: "Y" | "N" = "Y", paymentData?: string) {
  const { three_ds_server_trans_id } = decodeToken(action.token)
  return h.api("POST", `/api/transactions/three-ds/${three_ds_server_trans_id}/request-authentication`, {
    fingerprint_result: base64(fingerprint),
    payment_data: paymentData ?? action.payment_data,
  })
}

export function authenticationCompleted(h: SandboxHarness, action: { session_id: string; payment_data: string }, trans_status: string) {
  return h.api("POST", "/api/transactions/three-ds/authentication-completed", {
    payment_data: action.payment_data,
    session_id: action.session_id,
    trans_status,
  })
}

/** The creq a merchant page builds from the decoded token (client-side step 3). */
export function creqFor(action: { token: string }): { url: string; creq: string } {
  const t = decodeToken(action.token)
  const creq = base64({
    threeDSServerTransID: t.three_ds_server_trans_id,
    acsTransID: t.acs_trans_id,
    messageVersion: t.message_version,
    messageType: "CReq",
    challengeWindowSize: t.challenge_window_size,
  })
  return { url: t.acs_url, creq }
}

/**
 * Drive the ACS challenge as a browser: POST creq to acs_url, press Approve, Decline or Cancel. Returns the ACS's
 * auto-submitting form that carries the cres to the notification URL.
 */
export async function decideAtAcs(h: SandboxHarness, action: { token: string }, decision: "approve" | "decline" | "cancel"): Promise<HtmlForm> {
  const { url, creq } = creqFor(action)
  const page = await h.raw("POST", url, { form: { creq } })
  if (page.status !== 200) throw new Error(`ACS challenge page answered ${page.status}: ${page.text}`)
  const decided = await submit(h, formById(page.text, decision))
  if (decided.status !== 200) throw new Error(`ACS decision answered ${decided.status}: ${decided.text}`)
  return formById(decided.text, "next")
}

/** Authorize with the default full 3-D Secure flow and pass the fingerprint step: the challenge action. */
export async function challengeAction(h: SandboxHarness, overrides: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  const res = await authorizeCard(h, {
    payment_method: h.encryptedCard({ number: "4111111111111111" }),
    metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE", ...metadata },
    ...overrides,
  })
  const next = await requestAuthentication(h, res.body.action)
  if (next.body.action?.type !== "THREE_DS_2_CHALLENGE") throw new Error(`expected a challenge, got ${next.text}`)
  return next.body.action
}
