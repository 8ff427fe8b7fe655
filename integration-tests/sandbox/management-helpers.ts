/** Setup shared by the merchant-API conformance specs: originals to manage, manage calls, a second merchant. */
import { BROWSER_INFO, uniqueReference, type RawResponse, type SandboxHarness } from "../support/sandbox"

export const RETURN_URL = "https://shop.example/return"

export type Original = { id: string; reference: string; terminal_id: string; amount: number; currency: string; status: string }

/** A Direct API card authorize with a test card of the given scenario (APPROVED for frictionless_approved). */
export async function authorizeCard(
  h: SandboxHarness,
  opts: {
    type?: "AUTHORIZE" | "PURCHASE"
    scenario?: string
    amount?: number
    currency?: string
    terminalId?: string
    extra?: Record<string, unknown>
  } = {},
): Promise<RawResponse> {
  return h.api("POST", "/api/transactions/authorize", {
    reference: uniqueReference("mg"),
    terminal_id: opts.terminalId ?? h.terminalId,
    description: "management conformance",
    currency: opts.currency ?? "EUR",
    amount: opts.amount ?? 10_000,
    transaction_type: opts.type ?? "AUTHORIZE",
    payment_method: h.encryptedCard({ number: h.testCard(opts.scenario ?? "frictionless_approved") }),
    browser_info: BROWSER_INFO,
    return_url: RETURN_URL,
    ...opts.extra,
  })
}

/** A finished original (the `result` of authorize); fails the test if the authorize did not finish. */
export async function original(h: SandboxHarness, opts: Parameters<typeof authorizeCard>[1] = {}): Promise<Original> {
  const res = await authorizeCard(h, opts)
  if (res.status !== 200 || !res.body?.result) throw new Error(`authorize did not finish: ${res.status} ${res.text}`)
  return res.body.result
}

export async function approved(h: SandboxHarness, type: "AUTHORIZE" | "PURCHASE", amount = 10_000, currency = "EUR"): Promise<Original> {
  const tx = await original(h, { type, amount, currency })
  if (tx.status !== "APPROVED") throw new Error(`expected an APPROVED ${type}, got ${tx.status}`)
  return tx
}

/** An original the terminal refused (INVALID, code 2015): made by the authorize dispatcher alone. */
export async function refusedOriginal(h: SandboxHarness, type: "AUTHORIZE" | "PURCHASE" = "AUTHORIZE"): Promise<Original> {
  const terminalId = "SBX-CARDS-01"
  await h.control("POST", `/_sandbox/terminals/${terminalId}`, { accepting: false })
  try {
    const tx = await original(h, { type, terminalId })
    if (tx.status !== "INVALID") throw new Error(`expected INVALID, got ${tx.status}`)
    return tx
  } finally {
    await h.control("POST", `/_sandbox/terminals/${terminalId}`, { accepting: true })
  }
}

/** The sandbox's own record of a transaction (amounts moved by management, parent_id, metadata). */
export async function recordOf(h: SandboxHarness, id: string) {
  const res = await h.control("GET", `/_sandbox/transactions/${id}`)
  if (res.status !== 200) throw new Error(`no record for ${id}: ${res.status}`)
  return res.body.record
}

export function manage(
  h: SandboxHarness,
  parent: Pick<Original, "reference" | "terminal_id" | "currency">,
  transactionType: string,
  amount: number,
  extra: Record<string, unknown> = {},
): Promise<RawResponse> {
  return h.api("POST", "/api/transactions/manage", {
    terminal_id: parent.terminal_id,
    reference: parent.reference,
    transaction_type: transactionType,
    amount,
    currency: parent.currency,
    ...extra,
  })
}

export async function statusOf(h: SandboxHarness, id: string) {
  const res = await h.api("GET", `/api/transactions/${id}/status`)
  if (res.status !== 200) throw new Error(`status failed: ${res.status} ${res.text}`)
  return res.body.transaction
}

/**
 * Adds a second merchant to the running sandbox (there is no API for that) and returns a bearer-authenticated
 * caller for it, to prove one merchant cannot see or touch another's objects.
 */
export async function otherMerchant(h: SandboxHarness) {
  const ctx = h.sandbox.context
  const mine = ctx.merchants.get(h.config.merchant_id)!
  const id = `mer_other_${ctx.merchants.size}`
  ctx.merchants.set(id, {
    ...mine,
    merchant_id: id,
    client_id: `${id}-client`,
    client_secret: `${id}-secret`,
    client_key: `${id}-key`,
    terminals: mine.terminals.map((t) => ({ ...t })),
  })
  const token = await h.raw("POST", h.config.token_url, {
    form: { grant_type: "client_credentials", client_id: `${id}-client`, client_secret: `${id}-secret` },
  })
  const bearer = `Bearer ${token.body.access_token}`
  return {
    api: (method: string, path: string, json?: unknown) =>
      h.raw(method, path, { json, headers: { authorization: bearer, ...(json === undefined ? { "content-type": "application/json" } : {}) } }),
  }
}

/** The gateway's 422 body naming exactly one property. */
export function expectInvalid(res: RawResponse, property: string, params?: string[]) {
  expect(res.status).toBe(422)
  expect(res.body).toMatchObject({ status: 422, method: expect.any(String) })
  expect(res.body.errors.map((e: { property: string }) => e.property)).toEqual([property])
  expect(res.body.errors[0].message).toEqual(expect.any(String))
  if (params) expect(res.body.errors[0].params).toEqual(params)
}
