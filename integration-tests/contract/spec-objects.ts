/**
 * Every request and response object of the vendored spec, read from its own words: a table where the documents
 * have one, the describing sentence where they do not. Nothing here comes from either schema.
 */
import { lineStartingWith, loadSpec, records, tableOf, type SpecDocument } from "./markdown"
import { fieldsOfSentence, fieldsOfTable, namesInSentence, type FieldSpec } from "./spec-fields"

const [cards, apm] = loadSpec()
export { cards, apm }

/** The part of a line between two markers. */
function between(doc: SpecDocument, linePrefix: string, from: string, to?: string): string {
  const line = lineStartingWith(doc, linePrefix)
  const start = line.indexOf(from)
  if (start < 0) throw new Error(`"${from}" not found in "${linePrefix}…"`)
  const rest = line.slice(start + from.length)
  return to === undefined ? rest : rest.slice(0, rest.indexOf(to))
}

const named = (names: string[], extra: Partial<FieldSpec> = {}): FieldSpec[] => names.map((name) => ({ name, text: "listed", ...extra }))

const LOCALES = records(tableOf(cards, "Embedded Fields component interface")).find((r) => r.option === "locale")!
/** The four locales the first document names (Embedded Fields `locale`). */
export const SPEC_LOCALES = [...LOCALES.notes.matchAll(/`([a-z]{2}-[A-Z]{2})`/g)].map((m) => m[1])

export const spec = {
  // --- first document: requests
  authorize: () => fieldsOfTable(tableOf(cards, "POST {base_url}/api/transactions/authorize")),
  manage: () => fieldsOfTable(tableOf(cards, "POST {base_url}/api/transactions/manage")),
  session: () => fieldsOfTable(tableOf(cards, "POST {base_url}/api/sessions")),
  browserInfo: () => fieldsOfTable(tableOf(cards, "Browser info (required for all card transactions)")),
  tokenization: () => fieldsOfTable(tableOf(cards, "Tokenization object (optional on authorize)")),
  createCustomer: () => fieldsOfSentence(between(cards, "Body: `email`", "Body:", "Response:"), { otherwiseRequired: false }),
  requestAuthentication: () => {
    const body = between(cards, "Body: `fingerprint_result`", "Body:", "Response:")
    const fields = fieldsOfSentence(body, { otherwiseRequired: true })
    // "Base64 of `Y` ..., Base64 of `N` ...": the two allowed values, encoded.
    const b64 = [...body.matchAll(/Base64 of `(\w)`/g)].map((m) => Buffer.from(m[1]).toString("base64"))
    return fields.map((f) => (f.name === "fingerprint_result" ? { ...f, values: b64 } : f))
  },
  authenticationCompleted: () => {
    const values = [...between(cards, "`trans_status` values:", "values:").matchAll(/`(\w)`/g)].map((m) => m[1])
    const fields = fieldsOfSentence(between(cards, "Body (all strings): `payment_data`", "Body (all strings):", "Response:"), { otherwiseRequired: true })
    return fields.map((f) => (f.name === "trans_status" ? { ...f, values } : f))
  },
  hostedPage: () => {
    const text = lineStartingWith(cards, "Endpoint `/api/hosted-payment-page`")
    const required = namesInSentence(between(cards, "Endpoint `/api/hosted-payment-page`", "Required redirect fields:", ".").trim())
    const description = /`description` is required \((\d+) to (\d+) characters\)/.exec(text)!
    const reference = /`reference` at most (\d+) characters/.exec(text)!
    const options = [.../`options` \(([^)]*)\)/.exec(text)![1].matchAll(/`(\w+)`/g)].map((m) => m[1])
    return [
      ...named(required, { required: true }),
      { name: "description", text, required: true, min: Number(description[1]), max: Number(description[2]) },
      { name: "reference", text, max: Number(reference[1]) },
      // "one of four supported languages": the four the document names are the embedded-fields locales.
      { name: "language", text, required: false, values: SPEC_LOCALES },
      { name: "options", text, required: false, kind: "object", nested: options },
    ] satisfies FieldSpec[]
  },
  paymentMethodRows: () =>
    records(tableOf(cards, "Payment method input (`payment_method` = `{type, data}`)")).map((r) => {
      const types = [...r.type.matchAll(/`([^`]+)`/g)].map((m) => m[1])
      const cell = r["data fields"]
      const empty = /`data` is an empty object/.test(cell)
      const fields = empty ? [] : fieldsOfSentence(cell).map((f) => (/all required/.test(cell) ? { ...f, required: true } : f))
      return { types, empty, fields }
    }),

  // --- first document: responses
  action: () => fieldsOfTable(tableOf(cards, "Execution response", "Action object:")),
  actionToken: () => fieldsOfTable(tableOf(cards, "Execution response", "Decoded `action.token`")),
  executionResponse: () =>
    named(tableOf(cards, "Execution response", "Returned by authorize").header.slice(1, 5), { nullable: true }),
  redirect: () => fieldsOfSentence(between(cards, "Redirect object:", "Redirect object:")),
  formSubmit: () => fieldsOfSentence(between(cards, "Form-submit object:", "Form-submit object:")),
  transaction: () => fieldsOfTable(tableOf(cards, "Transaction (the `result` object)")),
  customer: () =>
    named(namesInSentence(between(cards, "Customer object (all fields string or null):", ":")), { nullable: true }),
  status: () => fieldsOfSentence(between(cards, "Path `id` is the transaction id", "Response:", ". When")),
  sessionResponse: () => [
    ...named(fieldsOfTable(tableOf(cards, "POST {base_url}/api/sessions")).map((f) => f.name)),
    ...named(namesInSentence(between(cards, "Response: the same fields plus", "plus", "=")).slice(0, 1)),
    { name: "status", text: "status = `CREATED`", values: [/`status` = `(\w+)`/.exec(lineStartingWith(cards, "Response: the same fields plus"))![1]] },
  ],
  customerResponse: () => named(namesInSentence(between(cards, "Body: `email`", "Response:", ". The address"))),
  token: () => fieldsOfSentence(between(cards, "Form body (`application/x-www-form-urlencoded`)", "Response:")),
  validationError: () => named(["errors", "method", "status"]).map((f) => (f.name === "errors" ? { ...f, kind: "object" as const, nested: ["message", "params", "property"] } : f)),
  statuses: () => records(tableOf(cards, "States and transitions", "Transaction status values:")).map((r) => ({ status: r.status, final: r.final === "Yes" })),
  simulator: () => {
    const line = lineStartingWith(cards, "Full 3-D Secure simulator:")
    const [flows, codes] = line.split("metadata `response_code`")
    return { simulated_flow: [...flows.matchAll(/`(VERSIONING_\w+)`/g)].map((m) => m[1]), response_code: [...codes.matchAll(/`(TRX_\w+)`/g)].map((m) => m[1]) }
  },

  // --- other document
  payment: () => fieldsOfTable(tableOf(apm, "Payment request (alternative payments)")),
  payout: () => fieldsOfTable(tableOf(apm, "Payout request")),
  beneficiary: () => {
    const line = lineStartingWith(apm, "Beneficiary `type`:")
    const type = /^Beneficiary `type`: `(\w+)`/.exec(line)![1]
    const data = line.slice(line.indexOf("`data` fields (strings):") + "`data` fields (strings):".length)
    const optionalFrom = data.indexOf("optional ")
    const fields = fieldsOfSentence(data.slice(0, optionalFrom)).concat(fieldsOfSentence(data.slice(optionalFrom + "optional ".length), { otherwiseRequired: false }))
    return [{ name: "type", text: line, required: true, values: [type] }, ...fields.map((f) => ({ ...f, name: `data.${f.name}` }))] satisfies FieldSpec[]
  },
  instant: () => fieldsOfTable(tableOf(apm, "Provider instant-payment method (type `provider-instant`, via authorize)")),
  voucher: () => {
    const line = lineStartingWith(apm, "Type format `voucher-redirect-{code}`")
    const codes = [...between(apm, "Type format `voucher-redirect-{code}`", "Allowed codes:", ".").matchAll(/`(\w+)`/g)].map((m) => m[1])
    const data = fieldsOfSentence(between(apm, "Type format `voucher-redirect-{code}`", "Data fields, all required strings:", ". Other"), { otherwiseRequired: true })
    const other = fieldsOfSentence(between(apm, "Type format `voucher-redirect-{code}`", "Other body fields:", ". The schema"))
    const alsoRequired = namesInSentence(between(apm, "Type format `voucher-redirect-{code}`", "required list also names", "."))
    return {
      codes,
      fields: [
        { name: "payment_method.type", text: line, required: true, values: codes.map((c) => `voucher-redirect-${c}`) },
        ...data.map((f) => ({ ...f, name: `payment_method.data.${f.name}` })),
        ...other.map((f) => (alsoRequired.includes(f.name) ? { ...f, required: true } : f)),
        ...alsoRequired.filter((n) => !other.some((f) => f.name === n)).map((name) => ({ name, text: line, required: true })),
      ] satisfies FieldSpec[],
    }
  },
  walletRedirect: () => {
    const line = lineStartingWith(apm, "`payment_method.type` = `wallet-one-redirect`")
    const types = [...line.slice(0, line.indexOf(";")).matchAll(/`(wallet-[\w-]+)`/g)].map((m) => m[1])
    const purchase = /`transaction_type` = `(\w+)`/.exec(line)![1]
    return [
      { name: "payment_method.type", text: line, required: true, values: types },
      { name: "transaction_type", text: line, values: [purchase] },
      { name: "customer", text: line, required: false },
      ...named(["return_url", "error_url", "cancel_url"]),
    ] satisfies FieldSpec[]
  },
  processingCodes: () => records(tableOf(apm, "Processing codes (`processing_code`)")).map((r) => ({ code: r.code, name: r.name })),
  events: () => tableOf(apm, "Events", "Transaction processed events").rows.map((r) => r[0]),
  eventPayload: () => fieldsOfTable(tableOf(apm, "Events", "Body: `{event: string, payload: object}`")),
  tokenizationPayload: () => {
    const line = lineStartingWith(apm, "Tokenization event `tokenization-webhook:payment-method:tokenized`")
    const event = /^Tokenization event `([^`]+)`/.exec(line)![1]
    // "`payment_method` (`id`, `type` required strings; `card` nullable object ...)", "`customer` (nullable: `id`, ...)".
    const fields = fieldsOfSentence(line.slice(line.indexOf("has ") + 4, line.indexOf(". A sample"))).map((f) => {
      const inner = [...f.text.matchAll(/`(\w+)`/g)].map((m) => m[1])
      if (!inner.length) return f
      const { values: _notValues, ...rest } = f
      return { ...rest, kind: "object" as const, nested: inner, ...(/^nullable/.test(f.text) ? { nullable: true } : {}) }
    })
    return { event, fields }
  },
}
