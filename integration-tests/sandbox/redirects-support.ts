/**
 * Shared pieces of the payment, payout, redirect and hosted-page conformance suites: request bodies, the 422
 * assertion, driving HTML forms over plain HTTP, and reading transactions and webhooks.
 */
import { BROWSER_INFO, uniqueReference, waitFor, type RawResponse, type SandboxHarness } from "../support/sandbox"
import type { startWebhookReceiver } from "../support/webhook-receiver"

export const URLS = {
  return_url: "https://shop.example/checkout/return",
  error_url: "https://shop.example/checkout/error",
  cancel_url: "https://shop.example/checkout/cancel",
}

export const paymentBody = (h: SandboxHarness, overrides: Record<string, unknown> = {}) => ({
  terminal_id: h.terminalId,
  reference: uniqueReference("pay"),
  description: "Order #2001",
  currency: "EUR",
  amount: 2_500,
  method: "OPEN_BANKING",
  country: "DE",
  customer_ip: "203.0.113.10",
  ...URLS,
  ...overrides,
})

export const payoutBody = (h: SandboxHarness, overrides: Record<string, unknown> = {}) => ({
  terminal_id: h.terminalId,
  reference: uniqueReference("po"),
  description: "Seller payout #7",
  currency: "INR",
  amount: 150_000,
  beneficiary: { type: "bank_account", data: { account_number: "001234567890", account_name: "Asha Rao", ifsc: "HDFC0001234" } },
  ...overrides,
})

const authorizeBase = (h: SandboxHarness) => ({
  terminal_id: h.terminalId,
  reference: uniqueReference("apm"),
  description: "Order #3001",
  amount: 4_990,
  transaction_type: "PURCHASE",
  return_url: URLS.return_url,
})

export const providerInstantBody = (h: SandboxHarness, data: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) => ({
  ...authorizeBase(h),
  currency: "PLN",
  payment_method: { type: "provider-instant", data: { email: "jan@example.pl", first_name: "Jan", last_name: "Kowalski", ...data } },
  ...overrides,
})

export const voucherBody = (h: SandboxHarness, type: string, overrides: Record<string, unknown> = {}) => ({
  ...authorizeBase(h),
  currency: "EUR",
  payment_method: { type, data: { email: "eva@example.com", first_name: "Eva", last_name: "Novak" } },
  customer: { first_name: "Eva", last_name: "Novak", email: "eva@example.com" },
  browser_info: BROWSER_INFO,
  metadata: { order: "3001" },
  ...overrides,
})

export const walletRedirectBody = (h: SandboxHarness, type: string, overrides: Record<string, unknown> = {}) => ({
  ...authorizeBase(h),
  currency: "EUR",
  payment_method: { type, data: {} },
  ...URLS,
  ...overrides,
})

/** A gateway 422 naming `property`, optionally with exact params. */
export function expectInvalid(res: RawResponse, property: string, params?: string[]): void {
  expect(res.status).toBe(422)
  expect(res.body).toMatchObject({ status: 422, method: "POST" })
  const error = res.body.errors.find((e: { property: string }) => e.property === property)
  expect({ property, found: error !== undefined, errors: res.body.errors }).toMatchObject({ property, found: true })
  if (params) expect(error.params).toEqual(params)
}

const decode = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

export type PageForm = { action: string; fields: Record<string, string> }

/** The form carrying data-choice="<choice>" (or id="<choice>"), with its action and the values of its inputs. */
export function findForm(page: string, choice: string): PageForm | null {
  for (const m of page.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attrs = m[1]
    if (!new RegExp(`(data-choice|id)="${choice}"`).test(attrs)) continue
    const action = decode(/action="([^"]*)"/.exec(attrs)?.[1] ?? "")
    const fields: Record<string, string> = {}
    for (const input of m[2].matchAll(/<input\b([^>]*)>/g)) {
      const name = /name="([^"]*)"/.exec(input[1])?.[1]
      if (name) fields[decode(name)] = decode(/value="([^"]*)"/.exec(input[1])?.[1] ?? "")
    }
    return { action, fields }
  }
  return null
}

/** What a browser does with a button: POST the form's fields (plus what the shopper typed) to its action. */
export async function submit(h: SandboxHarness, page: string, choice: string, typed: Record<string, string> = {}): Promise<RawResponse> {
  const form = findForm(page, choice)
  if (!form) throw new Error(`no form "${choice}" on the page:\n${page}`)
  return h.raw("POST", new URL(form.action, h.url).toString(), { form: { ...form.fields, ...typed } })
}

/** The transaction as the sandbox holds it (control route: independent of the status endpoint). */
export async function transactionState(h: SandboxHarness, id: string) {
  const res = await h.control("GET", `/_sandbox/transactions/${id}`)
  expect(res.status).toBe(200)
  return res.body.transaction
}

export async function forceOutcome(h: SandboxHarness, id: string, status: string) {
  const res = await h.control("POST", `/_sandbox/transactions/${id}/outcome`, { status })
  expect(res.status).toBe(200)
  return res.body.transaction
}

type Receiver = Awaited<ReturnType<typeof startWebhookReceiver>>

/** The events the receiver got for one transaction, in arrival order. */
/**
 * The events of one transaction in the order the gateway produced them (payload.updated_at): two webhooks sent
 * milliseconds apart travel on separate connections and may arrive either way round.
 */
export const eventsFor = (receiver: Receiver, id: string): string[] =>
  receiver.received
    .filter((w) => w.body?.payload?.id === id)
    .map((w, i) => ({ event: w.body.event as string, at: Date.parse(w.body.payload.updated_at) || 0, i }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((e) => e.event)

export const waitForEvents = (receiver: Receiver, id: string, events: string[]) =>
  waitFor(() => eventsFor(receiver, id).length >= events.length && eventsFor(receiver, id), { what: `${events.join(", ")} for ${id}` })
