/**
 * The checkout as an explicit state machine (after adyen-web's ThreeDS2 components): every move is listed, any
 * other move is a bug and throws. `paid` is set once the gateway approved a payment for this session, after
 * which the machine refuses another submitPayment: retries only complete the cart again (idempotent per cart).
 */
export type State =
  | "loading" // reading the cart, its methods and the customer's saved cards
  | "idle" // choosing and filling in
  | "submitting" // the embedded fields are paying
  | "attaching" // telling our store route which transaction resulted
  | "starting" // creating a Direct API or redirect-method payment session
  | "completing" // sdk.store.cart.complete (with 409 waits and network retries)
  | "fingerprint" // 3-D Secure method iframe, then request-authentication
  | "challenge" // ACS challenge iframe, then authentication-completed
  | "leaving" // redirect or form_submit: the browser goes to the gateway / provider
  | "done"
  | "failed"

const MOVES: Record<State, State[]> = {
  loading: ["idle", "failed"],
  idle: ["submitting", "starting", "completing"],
  submitting: ["attaching", "idle", "failed"],
  attaching: ["completing", "failed"],
  starting: ["completing", "failed"],
  completing: ["done", "failed", "fingerprint", "challenge", "leaving"],
  fingerprint: ["challenge", "completing", "leaving", "failed"],
  challenge: ["fingerprint", "challenge", "completing", "leaving", "failed"],
  leaving: [],
  done: [],
  failed: ["idle"],
}

export class Machine {
  state: State = "loading"
  paid = false
  constructor(private onChange: (s: State) => void) {}

  can(next: State): boolean {
    return MOVES[this.state].includes(next) && !(next === "submitting" && this.paid)
  }

  go(next: State): void {
    if (!this.can(next)) throw new Error(`pgs widget: ${this.state} → ${next} is not allowed`)
    this.state = next
    this.onChange(next)
  }
}
