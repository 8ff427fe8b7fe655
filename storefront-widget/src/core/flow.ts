/**
 * The checkout flow as a pure state machine (after adyen-web's ThreeDS2 components): `next(flow, event)` returns
 * the next flow and touches nothing. The DOM layer renders each flow and makes the one call its state asks for,
 * feeding the answer back as an event. An event a state does not take returns the same flow (a late answer after
 * a cancel, a double click). Whether a payment failed is the server's word (the session's status), never ours.
 */
import type { NextAction, Order, PaymentSession } from "./store-types.js"
import { declineKey, type TextKey } from "./i18n.js"

export type State =
  | "loading" // reading the cart, its methods and the customer's saved cards
  | "idle" // choosing and filling in
  | "submitting" // the embedded fields are paying (3-D Secure may run inside their frame)
  | "attaching" // telling our store route which transaction resulted; the server decides what it means (a cart's
  //              completion can attach it itself: `submitted` names the session, and the flow goes on to completing)
  | "starting" // creating a Direct API or redirect-method payment session
  | "completing" // cart completion (again after a 409 or a lost answer: Medusa completes a cart once)
  | "fingerprint" // 3-D Secure method iframe, then request-authentication
  | "challenge" // the bank's challenge, then authentication-completed; the method list is locked
  | "leaving" // redirect or form_submit: the browser goes to the gateway or the provider
  | "done"

/** `n`: the minutes to wait, for the card-testing guard's refusal ("many"). */
export type Note = { key: TextKey; alert?: boolean; n?: string }

export type Flow = {
  state: State
  /** What the shopper reads: progress, or a problem (alert) shown next to the chosen method. */
  note: Note | null
  /** Repeats of the current server call after a lost answer (network, 5xx) or a busy store (409). */
  tries: number
  /** The gateway took a payment for this session: no second submitPayment, only completing again. */
  paid: boolean
  /** A session whose completion did not conclude: the next Pay completes it again, never pays anew. */
  unsettled: PaymentSession | null
  /** attaching: the transaction the embedded fields reported. */
  tx?: string
  /** fingerprint, challenge, leaving: the session and its next step. */
  session?: PaymentSession
  step?: NextAction
  /** fingerprint: the method form's outcome, once known (then the server is told). */
  posted?: boolean
  /** challenge: the ACS's answer, once known (then the server is told); canceled by the shopper. */
  trans?: string
  canceled?: boolean
  /** An attempt ended without payment: a card attempt's fields need a fresh session. */
  renew?: boolean
  order?: Order
}

export type Event =
  | { type: "loaded" }
  | ({ type: "note" } & Note)
  /** `placed`: the cart is an order already (another tab paid): complete it again, which answers that order. */
  | { type: "pay"; card: boolean; placed?: boolean }
  /**
   * `gone`: the gateway no longer knows the card session (lost, expired): the fields need a fresh one. `session`:
   * the card session the cart's completion attaches the transaction to (one store call, not two).
   */
  | { type: "submitted"; transaction_id?: string | null; busy?: boolean; gone?: boolean; session?: PaymentSession }
  | { type: "session"; session: PaymentSession }
  | { type: "order"; order: Order }
  | { type: "refused"; session: PaymentSession }
  | { type: "fingerprinted"; posted: boolean }
  | { type: "challenged"; trans: string | null }
  | { type: "cancel" }
  /**
   * `note`: a refusal told at once (api.ts refusalOf), never repeated. `conflict`: the completion refused the
   * transaction it was given (api.ts conflictOf), a 409 no repeat changes (Medusa's own 409 is a busy cart).
   */
  | { type: "fault"; status?: number; note?: Note | false; conflict?: boolean }
  | { type: "clear" }

/** How often a lost answer or a busy store is asked again before the shopper is told. */
export const MAX_TRIES = 10

/** The wait before the `tries`-th repeat: capped backoff. */
export const delayOf = (tries: number) => (tries ? Math.min(300 * 2 ** (tries - 1), 4000) : 0)

const PROGRESS: Partial<Record<State, TextKey>> = {
  loading: "loading",
  // The embedded fields run 3-D Secure inside their frame and say nothing of it: a challenge may be on screen.
  submitting: "verifying",
  attaching: "processing",
  starting: "processing",
  completing: "processing",
  fingerprint: "verifying",
  challenge: "challenge",
  leaving: "redirecting",
  done: "paid",
}

export const initialFlow: Flow = { state: "loading", note: { key: "loading" }, tries: 0, paid: false, unsettled: null }

/** A new state: the previous state's own data is dropped, `paid` and `unsettled` carry over unless given. */
const go = (f: Flow, state: State, extra: Partial<Flow> = {}): Flow => {
  const key = PROGRESS[state]
  return { state, note: key ? { key } : null, tries: 0, paid: f.paid, unsettled: f.unsettled, ...extra }
}

/** This attempt is over and nothing was taken: the next Pay starts a new attempt (a fresh card session too). */
const decline = (f: Flow, s: PaymentSession): Flow =>
  go(f, "idle", {
    note: { key: f.canceled ? "canceled" : declineKey(s.data.error?.code ?? s.data.gateway_status, s.status), alert: true },
    paid: false,
    unsettled: null,
    renew: true,
  })

/** Where a session the server answered with leads: its next step, a decline, or completing the cart. */
function settle(f: Flow, s: PaymentSession, refused = false): Flow {
  const step = s.status === "requires_more" ? s.data.next_action : null
  // A challenge the shopper closed and the gateway still waits on (its ACS saw no decision): the attempt ends here.
  if (step) return f.canceled ? decline(f, s) : go(f, step.type === "fingerprint" || step.type === "challenge" ? step.type : "leaving", { session: s, step, unsettled: s })
  // A refused completion without a next step, or a failed session, ends the attempt.
  if (refused || s.status === "error" || s.status === "canceled") return decline(f, s)
  return go(f, "completing", { unsettled: s })
}

/** An answer that never came (network failure) or a server failure: what was asked may or may not have happened. */
export const lost = (status?: number) => status === undefined || status >= 500

/** A call failed: repeat what is safe to repeat, else tell the shopper (a session of unknown outcome is kept). */
function fault(f: Flow, status?: number, note?: Note | false, conflict?: boolean): Flow {
  // The gateway is away or refuses the store (the server already tried; the shopper may choose another method), or
  // the store's card-testing guard refuses the client for some minutes: nothing to repeat.
  if (note) return go(f, "idle", { note })
  // The 3-D Secure routes are never repeated (nor is the gateway's step): completing reads where it got to.
  if ((f.state === "fingerprint" || f.state === "challenge") && (lost(status) || status === 409)) return go(f, "completing")
  const busy = status === 409 && f.state === "completing" && !conflict
  const unknown = lost(status) || busy
  if (unknown && f.tries + 1 < MAX_TRIES) return { ...f, tries: f.tries + 1, note: { key: busy ? "busy" : "retrying" } }
  // An outcome still unknown keeps its session (the next Pay completes it again). A refusal no repeat changes (the
  // completion's transaction is not the session's, the session not the cart's, a bad body) keeps nothing of the
  // attempt: a fresh session, and the shopper pays again.
  return go(f, "idle", { note: { key: conflict ? "expired" : "error", alert: true }, ...(unknown ? {} : { paid: false, unsettled: null, renew: true }) })
}

const CALLS: State[] = ["loading", "attaching", "starting", "completing", "fingerprint", "challenge"]

export function next(f: Flow, e: Event): Flow {
  if (e.type === "fault") return CALLS.includes(f.state) ? fault(f, e.status, e.note, e.conflict) : f
  switch (f.state) {
    case "loading":
      return e.type === "loaded" ? go(f, "idle") : f
    case "idle":
      if (e.type === "note") return { ...f, note: e, renew: undefined }
      if (e.type === "clear") return { ...f, note: null, renew: undefined }
      if (e.type !== "pay") return f
      if (f.unsettled || e.placed) return go(f, "completing")
      if (!e.card) return go(f, "starting")
      return f.paid ? f : go(f, "submitting")
    case "submitting":
      if (e.type !== "submitted") return f
      if (e.transaction_id) return e.session ? go(f, "completing", { paid: true, unsettled: e.session }) : go(f, "attaching", { tx: e.transaction_id })
      // Nothing was taken on a session the gateway forgot: fresh fields, and the shopper only pays again.
      if (e.gone) return go(f, "idle", { note: { key: "expired", alert: true }, renew: true })
      return go(f, "idle", { note: { key: e.busy ? "processing" : "error", alert: true } })
    case "attaching":
      return e.type === "session" ? settle({ ...f, paid: true }, e.session) : f
    case "starting":
      return e.type === "session" ? go(f, "completing", { unsettled: e.session }) : f
    case "completing":
      if (e.type === "order") return go(f, "done", { order: e.order, unsettled: null })
      return e.type === "refused" ? settle(f, e.session, true) : f
    case "fingerprint":
      if (e.type === "fingerprinted" && f.posted === undefined) return { ...f, posted: e.posted }
      return e.type === "session" && f.posted !== undefined ? settle(f, e.session) : f
    case "challenge":
      if (f.trans === undefined) {
        // null: our backend's notification page already told the gateway; completing reads the outcome.
        if (e.type === "challenged") return e.trans === null ? go(f, "completing") : { ...f, trans: e.trans }
        // The shopper closed the challenge: the bank is told the cardholder did not authenticate.
        if (e.type === "cancel") return { ...f, trans: "N", canceled: true, note: { key: "processing" } }
      }
      return e.type === "session" && f.trans !== undefined ? settle(f, e.session) : f
    default:
      return f
  }
}
