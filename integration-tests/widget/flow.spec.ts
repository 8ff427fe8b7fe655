/**
 * The widget's checkout flow (storefront-widget/src/core/flow.ts) without a browser: every transition of the pure
 * state machine, including lost answers, a busy store (409), declines the server reports, and the challenge.
 */
import type { PaymentSession } from "../../storefront-widget/src/core/cart"
import { delayOf, initialFlow, MAX_TRIES, next, type Event, type Flow, type State } from "../../storefront-widget/src/core/flow"
import type { NextAction } from "../../storefront-widget/src/core/store-types"
import { conflictOf, refusalOf } from "../../storefront-widget/src/core/api"
import { translator } from "../../storefront-widget/src/core/i18n"

const session = (status: string, data: PaymentSession["data"] = {}, provider_id = "pp_pgs_pgs"): PaymentSession => ({ id: "payses_1", provider_id, status, data })
const FINGERPRINT: NextAction = { type: "fingerprint", method_url: "https://acs.example/method", three_ds_method_data: "e30" }
const CHALLENGE: NextAction = { type: "challenge", acs_url: "https://acs.example/challenge", creq: "e30" }
const REDIRECT: NextAction = { type: "redirect", url: "https://bank.example/pay" }

/** Runs events from a flow, each one required to be taken (a new flow). */
function through(from: Flow, ...events: Event[]): Flow {
  return events.reduce((f, e) => {
    const n = next(f, e)
    if (n === f) throw new Error(`${f.state} did not take ${e.type}`)
    return n
  }, from)
}

const idle = through(initialFlow, { type: "loaded" })
const at = (state: State, extra: Partial<Flow> = {}): Flow => ({ ...idle, state, note: null, ...extra })

describe("widget flow: choosing and paying", () => {
  it("starts loading and becomes idle, with nothing to say, once the methods are loaded", () => {
    expect(initialFlow).toMatchObject({ state: "loading", note: { key: "loading" }, paid: false, unsettled: null })
    expect(idle).toMatchObject({ state: "idle", note: null })
  })

  it("pays a card in the embedded fields, then attaches the transaction the fields reported", () => {
    const submitting = through(idle, { type: "pay", card: true })
    // "Checking your card with your bank…": a bank's challenge may be showing inside the fields' frame meanwhile.
    expect(submitting).toMatchObject({ state: "submitting", note: { key: "verifying" } })
    expect(through(submitting, { type: "submitted", transaction_id: "tx_1" })).toMatchObject({ state: "attaching", tx: "tx_1" })
  })

  it("goes straight on to completing when the transaction is to be attached by the cart's completion (one store call), and never pays that session again", () => {
    const submitting = through(idle, { type: "pay", card: true })
    const session = { id: "payses_1", provider_id: "pp_pgs_pgs", status: "pending", data: {} }
    const completing = through(submitting, { type: "submitted", transaction_id: "tx_1", session })
    expect(completing).toMatchObject({ state: "completing", paid: true, unsettled: session, note: { key: "processing" } })
    // A lost answer: the next Pay completes again (the same transaction goes with it), never a second payment.
    const lostAnswers = Array.from({ length: MAX_TRIES }).reduce<Flow>((f) => through(f, { type: "fault" }), completing)
    expect(lostAnswers).toMatchObject({ state: "idle", unsettled: session })
    expect(through(lostAnswers, { type: "pay", card: true })).toMatchObject({ state: "completing" })
  })

  it("goes back to idle with a message when the fields give no transaction (busy, or a failure)", () => {
    const submitting = through(idle, { type: "pay", card: true })
    expect(through(submitting, { type: "submitted", busy: true })).toMatchObject({ state: "idle", note: { key: "processing", alert: true } })
    expect(through(submitting, { type: "submitted", transaction_id: null })).toMatchObject({ state: "idle", note: { key: "error", alert: true } })
  })

  it("renews the card fields and asks the shopper to pay again when the gateway no longer knows the card session", () => {
    const submitting = through(idle, { type: "pay", card: true })
    const renewed = through(submitting, { type: "submitted", transaction_id: null, gone: true })
    expect(renewed).toMatchObject({ state: "idle", note: { key: "expired", alert: true }, renew: true, paid: false, unsettled: null })
    expect(next(renewed, { type: "pay", card: true }).state).toBe("submitting")
  })

  it("completes the cart once the server accepted the transaction, and never submits the card again", () => {
    const completing = through(idle, { type: "pay", card: true }, { type: "submitted", transaction_id: "tx_1" }, { type: "session", session: session("authorized") })
    expect(completing).toMatchObject({ state: "completing", paid: true, unsettled: { id: "payses_1" } })
    // Paid but unsettled (e.g. after the shopper was told of an error): Pay only completes again.
    const back = { ...completing, state: "idle" as const }
    expect(next(back, { type: "pay", card: true }).state).toBe("completing")
    const paidSettled = { ...back, unsettled: null }
    expect(next(paidSettled, { type: "pay", card: true })).toBe(paidSettled)
  })

  it("declines when the server says the attached transaction failed, and asks for fresh card fields", () => {
    const f = through(idle, { type: "pay", card: true }, { type: "submitted", transaction_id: "tx_1" }, { type: "session", session: session("error", { error: { code: "1004" } }) })
    expect(f).toMatchObject({ state: "idle", paid: false, unsettled: null, renew: true, note: { key: "insufficient", alert: true } })
  })

  it("says payments are unavailable, not declined, when the gateway refused the store's terminal", () => {
    for (const code of ["pgs_gateway_unavailable", "2013", "2017"]) {
      const f = through(idle, { type: "pay", card: true }, { type: "submitted", transaction_id: "tx_1" }, { type: "session", session: session("error", { error: { code } }) })
      expect(f.note).toEqual({ key: "unavailable", alert: true })
    }
    const declined = through(idle, { type: "pay", card: true }, { type: "submitted", transaction_id: "tx_1" }, { type: "session", session: session("error", { error: { code: "2012" } }) })
    expect(declined.note).toEqual({ key: "declined", alert: true })
  })

  it("starts a Direct API or redirect session, then completes", () => {
    const starting = through(idle, { type: "pay", card: false })
    expect(starting.state).toBe("starting")
    expect(through(starting, { type: "session", session: session("pending") })).toMatchObject({ state: "completing", unsettled: { id: "payses_1" } })
  })

  it("completes instead of paying when the cart is an order already (another tab paid), so nothing is charged twice", () => {
    const idle = at("idle")
    expect(through(idle, { type: "pay", card: true, placed: true }).state).toBe("completing")
    expect(through(idle, { type: "pay", card: false, placed: true }).state).toBe("completing")
  })

  it("says what is wrong with the shopper's input and clears it", () => {
    const told = through(idle, { type: "note", key: "checkFields", alert: true })
    expect(told.note).toMatchObject({ key: "checkFields", alert: true })
    expect(through(told, { type: "clear" }).note).toBeNull()
    expect(through(idle, { type: "note", key: "deleted" }).note).toMatchObject({ key: "deleted" })
    expect(through(idle, { type: "note", key: "deleted" }).note?.alert).toBeUndefined()
  })
})

describe("widget flow: completing the cart", () => {
  const completing = at("completing", { unsettled: session("pending") })

  it("places the order", () => {
    expect(through(completing, { type: "order", order: { id: "order_1" } })).toMatchObject({ state: "done", order: { id: "order_1" }, unsettled: null, note: { key: "paid" } })
  })

  it.each([
    ["fingerprint", FINGERPRINT],
    ["challenge", CHALLENGE],
    ["leaving", REDIRECT],
  ] as const)("runs the next step the refused completion names (%s)", (state, step) => {
    const f = through(completing, { type: "refused", session: session("requires_more", { next_action: step }) })
    expect(f).toMatchObject({ state, step, session: { id: "payses_1" } })
  })

  it("declines a refused completion without a next step, in the shopper's words for the gateway's code", () => {
    expect(through(completing, { type: "refused", session: session("error", { gateway_status: "DECLINED" }) }).note).toEqual({ key: "declined", alert: true })
    expect(through(completing, { type: "refused", session: session("canceled") }).note).toEqual({ key: "canceled", alert: true })
    expect(through(completing, { type: "refused", session: session("pending") })).toMatchObject({ state: "idle", unsettled: null })
  })

  it("asks again after a 409 (another completion is running), saying the order is being completed", () => {
    const f = through(completing, { type: "fault", status: 409 })
    expect(f).toMatchObject({ state: "completing", tries: 1, note: { key: "busy" } })
    expect(delayOf(f.tries)).toBeGreaterThan(0)
  })

  it.each([[undefined], [502]])("asks again after a lost answer (status %p), saying it retries", (status) => {
    expect(through(completing, { type: "fault", status })).toMatchObject({ state: "completing", tries: 1, note: { key: "retrying" } })
  })

  it("gives up after MAX_TRIES, keeping the session of unknown outcome so the next Pay completes it again", () => {
    let f = completing
    for (let i = 1; i < MAX_TRIES; i++) f = through(f, { type: "fault" })
    expect(f.tries).toBe(MAX_TRIES - 1)
    f = through(f, { type: "fault" })
    expect(f).toMatchObject({ state: "idle", note: { key: "error", alert: true }, unsettled: { id: "payses_1" } })
    expect(through(f, { type: "pay", card: false }).state).toBe("completing")
  })

  it("tells the shopper at once about a refusal (4xx) and forgets the session", () => {
    expect(through(completing, { type: "fault", status: 400 })).toMatchObject({ state: "idle", unsettled: null, note: { key: "error", alert: true } })
  })

  it.each([[400], [404]])("after a refused completion (%p) of a paid card, lets the next Pay pay again on a fresh session instead of doing nothing", (status) => {
    const paid = at("completing", { paid: true, unsettled: session("pending") })
    const f = through(paid, { type: "fault", status })
    expect(f).toMatchObject({ state: "idle", paid: false, unsettled: null, renew: true, note: { key: "error", alert: true } })
    expect(through(f, { type: "pay", card: true }).state).toBe("submitting")
  })

  it("does not repeat a completion whose transaction the store refused (409 pgs_transaction_conflict): a fresh session, said in words", () => {
    const paid = at("completing", { paid: true, unsettled: session("pending") })
    const error = Object.assign(new Error("Another transaction is already attached to this payment session"), { status: 409, body: { code: "pgs_transaction_conflict" } })
    const f = through(paid, { type: "fault", status: 409, conflict: conflictOf(error) })
    expect(f).toMatchObject({ state: "idle", tries: 0, paid: false, unsettled: null, renew: true, note: { key: "expired", alert: true } })
    expect(through(f, { type: "pay", card: true }).state).toBe("submitting")
    // The js-sdk keeps only the message; Medusa's own 409 (another completion running) is still a busy store.
    expect(conflictOf(new Error("The transaction does not belong to this payment session (amount differ)") as never)).toBe(true)
    expect(conflictOf(Object.assign(new Error("The request conflicted with another request. You may retry the request with the provided Idempotency-Key."), { status: 409 }))).toBe(false)
  })

  it.each([[503], [400]])("tells the shopper at once that the method is unavailable when the gateway is away (status %p), without repeating", (status) => {
    const f = through(completing, { type: "fault", status, note: refusalOf(Object.assign(new Error("unavailable"), { status, body: { code: "pgs_gateway_unavailable" } })) })
    expect(f).toMatchObject({ state: "idle", tries: 0, note: { key: "unavailable", alert: true }, unsettled: { id: "payses_1" } })
    expect(through(f, { type: "pay", card: false }).state).toBe("completing")
  })

  it("tells the shopper at once that there were too many payment attempts when the store's card-testing guard answers 429, without repeating", async () => {
    const body = { type: "too_many_payment_attempts", message: "Too many payment attempts. Try again in 20 minutes.", retry_after: 1200, minutes: "20" }
    const refused = Object.assign(new Error(body.message), { status: 429, body })
    const f = through(completing, { type: "fault", status: 429, note: refusalOf(refused) })
    expect(f).toMatchObject({ state: "idle", tries: 0, note: { key: "many", alert: true, n: "20" } })
    // Told in the shopper's language, with the minutes the store gave.
    expect((await translator("en-US"))("many", f.note!)).toBe("Too many payment attempts. Try again in 20 min.")
    expect((await translator("sv-SE"))("many", f.note!)).toBe("För många betalningsförsök. Försök igen om 20 min.")
  })

  it("waits longer after each repeat, up to a cap", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map(delayOf)).toEqual([0, 300, 600, 1200, 2400, 4000, 4000])
  })
})

describe("widget flow: 3-D Secure", () => {
  const fingerprint = at("fingerprint", { session: session("requires_more"), step: FINGERPRINT, unsettled: session("requires_more") })
  const challenge = at("challenge", { session: session("requires_more"), step: CHALLENGE, unsettled: session("requires_more") })

  it("tells the server how the fingerprint went, then runs the step it answers with", () => {
    const told = through(fingerprint, { type: "fingerprinted", posted: true })
    expect(told).toMatchObject({ state: "fingerprint", posted: true })
    expect(next(told, { type: "fingerprinted", posted: false })).toBe(told) // a second report is ignored
    expect(through(told, { type: "session", session: session("requires_more", { next_action: CHALLENGE }) })).toMatchObject({ state: "challenge", step: CHALLENGE })
    expect(through(told, { type: "session", session: session("authorized") })).toMatchObject({ state: "completing" })
  })

  it("ignores a session answer before the fingerprint ran", () => {
    expect(next(fingerprint, { type: "session", session: session("authorized") })).toBe(fingerprint)
  })

  it("hands the challenge's answer to the server, then completes, or declines", () => {
    const answered = through(challenge, { type: "challenged", trans: "Y" })
    expect(answered).toMatchObject({ state: "challenge", trans: "Y" })
    expect(through(answered, { type: "session", session: session("authorized") }).state).toBe("completing")
    expect(through(answered, { type: "session", session: session("error") })).toMatchObject({ state: "idle", note: { key: "declined", alert: true }, renew: true })
  })

  it("completes at once when our backend's notification page already told the gateway", () => {
    expect(through(challenge, { type: "challenged", trans: null }).state).toBe("completing")
  })

  it("lets the shopper cancel the challenge: the bank is told N, and the shopper reads that the payment was canceled", () => {
    const canceled = through(challenge, { type: "cancel" })
    expect(canceled).toMatchObject({ state: "challenge", trans: "N", canceled: true })
    expect(next(canceled, { type: "challenged", trans: "Y" })).toBe(canceled) // the closed frame's late answer
    expect(next(canceled, { type: "cancel" })).toBe(canceled)
    expect(through(canceled, { type: "session", session: session("error") }).note).toEqual({ key: "canceled", alert: true })
  })

  it("ends a canceled challenge the gateway still waits on (its ACS saw no decision) instead of showing it again", () => {
    const canceled = through(challenge, { type: "cancel" })
    const stillWaiting = session("requires_more", { next_action: CHALLENGE })
    expect(through(canceled, { type: "session", session: stillWaiting })).toMatchObject({ state: "idle", note: { key: "canceled", alert: true }, renew: true, unsettled: null })
    // Not canceled: the same answer is a further round, shown again.
    const answered = through(challenge, { type: "challenged", trans: "Y" })
    expect(through(answered, { type: "session", session: stillWaiting }).state).toBe("challenge")
  })

  it.each([[undefined], [503], [409]])("reads the outcome by completing after a lost or refused 3-D Secure answer (%p)", (status) => {
    const answered = through(challenge, { type: "challenged", trans: "Y" })
    expect(through(answered, { type: "fault", status })).toMatchObject({ state: "completing", tries: 0 })
    expect(through({ ...fingerprint, posted: true }, { type: "fault", status }).state).toBe("completing")
  })
})

describe("widget flow: events a state does not take", () => {
  it.each<[State, Event]>([
    ["loading", { type: "pay", card: true }],
    ["idle", { type: "order", order: { id: "order_1" } }],
    ["idle", { type: "fault", status: 500 }],
    ["submitting", { type: "pay", card: true }],
    ["submitting", { type: "cancel" }],
    ["attaching", { type: "order", order: { id: "order_1" } }],
    ["starting", { type: "refused", session: session("error") }],
    ["completing", { type: "pay", card: true }],
    ["leaving", { type: "fault" }],
    ["done", { type: "pay", card: true }],
    ["done", { type: "fault", status: 409 }],
  ])("%s ignores %j", (state, event) => {
    const f = at(state)
    expect(next(f, event)).toBe(f)
  })

  it("repeats loading after a lost answer and gives up on a refusal", () => {
    expect(through(initialFlow, { type: "fault" })).toMatchObject({ state: "loading", tries: 1 })
    expect(through(initialFlow, { type: "fault", status: 404 })).toMatchObject({ state: "idle", note: { key: "error", alert: true } })
  })

  it("repeats attaching after a lost answer (the server verifies the same transaction again) but not after a mismatch (409)", () => {
    const attaching = at("attaching", { tx: "tx_1" })
    expect(through(attaching, { type: "fault" })).toMatchObject({ state: "attaching", tx: "tx_1", tries: 1 })
    expect(through(attaching, { type: "fault", status: 409 })).toMatchObject({ state: "idle", note: { key: "error", alert: true } })
  })
})
