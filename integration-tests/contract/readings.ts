/**
 * The two readings of each spec object: the sandbox's schema (sandbox/schemas) and the client's
 * (src/gateway/schemas), with the sample body their rules are probed on. `departures()` lists, per reading,
 * every way it differs from the spec's words.
 */
import * as client from "../../src/gateway/schemas"
import { PROCESSING_CODES as CLIENT_PROCESSING_CODES } from "../../src/gateway/outcomes"
import * as sandbox from "../../sandbox/schemas"
import { SIMULATED_FLOWS } from "../../sandbox/cards/flow"
import { RESPONSE_CODES } from "../../sandbox/cards/metadata"
import { responseMessageFor } from "../../sandbox/core/store"
import { disagreements, type Reading } from "./compare"
import { samples } from "./samples"
import { spec, SPEC_LOCALES } from "./spec-objects"
import type { FieldSpec } from "./spec-fields"
import { fieldAt, optionOf, shapeOf } from "./zod-reading"

type Side = "sandbox" | "client"
type Case = { object: string; fields: () => FieldSpec[]; sandbox?: Reading; client?: Reading }

const both = (schemas: { sandbox: Reading["schema"]; client: Reading["schema"] }, extra: Omit<Reading, "schema"> = {}) => ({
  sandbox: { schema: schemas.sandbox, ...extra },
  client: { schema: schemas.client, ...extra },
})
const response = { listedMeansPresent: true }

const clientTokenization = shapeOf(client.authorizeRequest)!.tokenization

const cases: Case[] = [
  // requests, first document
  { object: "authorize", fields: spec.authorize, ...both({ sandbox: sandbox.authorizeRequest, client: client.authorizeRequest }, { sample: samples.cardAuthorize }) },
  { object: "manage", fields: spec.manage, ...both({ sandbox: sandbox.manageRequest, client: client.manageRequest }, { sample: samples.manage }) },
  { object: "session", fields: spec.session, ...both({ sandbox: sandbox.sessionRequest, client: client.sessionRequest }, { sample: samples.session }) },
  { object: "browser_info", fields: spec.browserInfo, ...both({ sandbox: sandbox.browserInfo, client: client.browserInfo }) },
  { object: "tokenization", fields: spec.tokenization, ...both({ sandbox: sandbox.tokenization, client: clientTokenization }) },
  { object: "create customer", fields: spec.createCustomer, ...both({ sandbox: sandbox.createCustomerRequest, client: client.createCustomerRequest }, { sample: samples.createCustomer }) },
  {
    object: "request-authentication",
    fields: spec.requestAuthentication,
    ...both({ sandbox: sandbox.requestAuthenticationRequest, client: client.requestAuthenticationRequest }, { sample: samples.requestAuthentication }),
  },
  {
    object: "authentication-completed",
    fields: spec.authenticationCompleted,
    ...both({ sandbox: sandbox.authenticationCompletedRequest, client: client.authenticationCompletedRequest }, { sample: samples.authenticationCompleted }),
  },
  { object: "hosted payment page", fields: spec.hostedPage, ...both({ sandbox: sandbox.hostedPaymentPageRequest, client: client.hostedPaymentPageRequest }, { sample: samples.hostedPage, partial: true }) },
  // requests, other document
  { object: "payment", fields: spec.payment, ...both({ sandbox: sandbox.paymentRequest, client: client.paymentRequest }, { sample: samples.payment }) },
  { object: "payout", fields: spec.payout, ...both({ sandbox: sandbox.payoutRequest, client: client.payoutRequest }, { sample: samples.payout }) },
  {
    object: "payout beneficiary",
    fields: () => spec.beneficiary().map((f) => ({ ...f, name: `beneficiary.${f.name}` })),
    // Read through the payout body: IFSC is required by the body's currency.
    ...both({ sandbox: sandbox.payoutRequest, client: client.payoutRequest }, { sample: samples.payout, partial: true }),
  },
  { object: "provider-instant", fields: spec.instant, ...both({ sandbox: sandbox.authorizeRequest, client: client.authorizeRequest }, { sample: samples.instant, partial: true }) },
  { object: "voucher redirect", fields: () => spec.voucher().fields, ...both({ sandbox: sandbox.authorizeRequest, client: client.authorizeRequest }, { sample: samples.voucher, partial: true }) },
  { object: "wallet redirect", fields: spec.walletRedirect, ...both({ sandbox: sandbox.authorizeRequest, client: client.authorizeRequest }, { sample: samples.walletRedirect, partial: true }) },
  // responses
  { object: "action", fields: spec.action, ...both({ sandbox: sandbox.action, client: client.action }, response) },
  { object: "action token", fields: spec.actionToken, ...both({ sandbox: sandbox.actionToken, client: client.actionToken }, response) },
  { object: "execution response", fields: spec.executionResponse, ...both({ sandbox: sandbox.executionResponse, client: client.executionResponse }, response) },
  { object: "redirect", fields: spec.redirect, ...both({ sandbox: sandbox.redirect, client: client.redirect }, response) },
  { object: "form_submit", fields: spec.formSubmit, ...both({ sandbox: sandbox.formSubmit, client: client.formSubmit }, response) },
  { object: "transaction", fields: spec.transaction, ...both({ sandbox: sandbox.transaction, client: client.transaction }, response) },
  { object: "customer", fields: spec.customer, ...both({ sandbox: sandbox.customerView, client: client.customer }, response) },
  { object: "status", fields: spec.status, ...both({ sandbox: sandbox.statusResponse, client: client.statusResponse }, response) },
  { object: "session response", fields: spec.sessionResponse, ...both({ sandbox: sandbox.sessionResponse, client: client.sessionResponse }, response) },
  { object: "customer response", fields: spec.customerResponse, ...both({ sandbox: sandbox.customerResponse, client: client.customerResponse }, response) },
  { object: "422 body", fields: spec.validationError, ...both({ sandbox: sandbox.validationErrorBody, client: client.validationErrorBody }, response) },
  // The sandbox builds its token answer in core/auth.ts without a schema; only the client parses one.
  { object: "token response", fields: spec.token, client: { schema: client.tokenResponse, ...response } },
  { object: "transaction event payload", fields: spec.eventPayload, ...both({ sandbox: sandbox.transactionEventPayload, client: client.transactionEventPayload }, response) },
  {
    object: "tokenization event payload",
    fields: () => spec.tokenizationPayload().fields,
    ...both({ sandbox: sandbox.tokenizationPayload, client: client.tokenizationPayloadNested }, response),
  },
]

/** The "Payment method input" table, row by row, against the `payment_method` union of each reading. */
function paymentMethodDepartures(union: Reading["schema"]): string[] {
  const found: string[] = []
  for (const row of spec.paymentMethodRows()) {
    for (const type of row.types) {
      const option = optionOf(union, type)
      if (!option) {
        found.push(`payment_method ${type}: missing`)
        continue
      }
      const sample = samples.paymentMethods[type]
      const fields: FieldSpec[] = [
        { name: "type", text: row.types.join(", "), required: true, values: row.types },
        { name: "data", text: "{type, data}", kind: "object" },
        ...row.fields.map((f) => ({ ...f, name: `data.${f.name}` })),
      ]
      for (const d of disagreements(fields, { schema: option, sample })) found.push(`payment_method ${type}: ${d}`)
      const data = fieldAt(option, "data")
      if (row.empty && Object.keys((data && shapeOf(data)) ?? {}).length > 0) found.push(`payment_method ${type}: data is not an empty object`)
    }
  }
  return found
}

const sameList = (object: string, expected: readonly string[], actual: readonly string[]) => [
  ...expected.filter((v) => !actual.includes(v)).map((v) => `${object}: lacks ${v}`),
  ...actual.filter((v) => !expected.includes(v)).map((v) => `${object}: adds ${v}`),
]

/** The lists both readings keep, side by side. */
const LISTS = {
  sandbox: {
    statuses: sandbox.TRANSACTION_STATUSES,
    finals: sandbox.FINAL_STATUSES,
    events: sandbox.TRANSACTION_EVENTS,
    tokenizationEvent: sandbox.TOKENIZATION_EVENT,
    voucherCodes: sandbox.VOUCHER_CODES,
    languages: sandbox.LANGUAGES,
    paymentMethod: sandbox.paymentMethod,
  },
  client: {
    statuses: client.TRANSACTION_STATUSES,
    finals: client.FINAL_STATUSES,
    events: client.TRANSACTION_EVENTS,
    tokenizationEvent: client.TOKENIZATION_EVENT,
    voucherCodes: client.VOUCHER_CODES,
    languages: client.HPP_LANGUAGES,
    paymentMethod: client.paymentMethodInput,
  },
}

/** What only one side holds: the sandbox's simulator and code names, the client's outcome table. */
function ownListDepartures(side: Side): string[] {
  const codes = spec.processingCodes()
  if (side === "client") return sameList("processing codes", codes.map((c) => c.code), Object.keys(CLIENT_PROCESSING_CODES))
  const simulator = spec.simulator()
  return [
    ...sameList("simulated_flow", simulator.simulated_flow, SIMULATED_FLOWS),
    ...sameList("response_code", simulator.response_code, Object.keys(RESPONSE_CODES)),
    ...codes.filter((c) => responseMessageFor(c.code) !== c.name).map((c) => `processing code ${c.code}: named ${responseMessageFor(c.code)}, the spec says ${c.name}`),
  ]
}

function listDepartures(side: Side): string[] {
  const lists = LISTS[side]
  const statuses = spec.statuses()
  const token = spec.tokenizationPayload().event
  return [
    ...sameList("transaction statuses", statuses.map((s) => s.status), lists.statuses),
    ...sameList("final statuses", statuses.filter((s) => s.final).map((s) => s.status), [...lists.finals]),
    ...sameList("transaction events", spec.events(), lists.events),
    ...(lists.tokenizationEvent === token ? [] : [`tokenization event: ${lists.tokenizationEvent}`]),
    ...sameList("voucher codes", spec.voucher().codes, lists.voucherCodes),
    ...sameList("languages", SPEC_LOCALES, lists.languages),
    ...paymentMethodDepartures(lists.paymentMethod),
    ...ownListDepartures(side),
  ]
}

/** Every departure of one reading from the spec, as "<object>: <field>: <how>". */
export function departures(side: Side): string[] {
  const found: string[] = []
  for (const c of cases) {
    const reading = c[side]
    if (!reading) continue
    for (const d of disagreements(c.fields(), reading)) found.push(`${c.object}: ${d}`)
  }
  return [...found, ...listDepartures(side)]
}
