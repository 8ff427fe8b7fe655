/**
 * The card's pay check: the cart read before a card is paid at the gateway (another tab may have completed the cart,
 * or replaced its card session: a retired session can still be paid at the gateway), ahead of Pay where that is safe.
 * A bundle of its own (build.cjs), loaded once the card fields are up: nothing here is needed before the shopper has
 * typed a card, so the first paint does not carry it.
 */
import type { Api } from "./api.js"
import type { Cart } from "./cart.js"

/** The cart from the store API, in Medusa's default fields (they hold every field of `Cart`). */
export const readCart = (api: Api, cartId: string): Promise<Cart> => api.fetch(`/store/carts/${cartId}`).then((r) => r.cart)

/**
 * The cart as a card's Pay reads it (completed? its card session? the payer), from the plugin's route outside the
 * store API (`GET /pgs/carts/:id/pay-check`: `Cart`'s fields, its sessions without `data`), in a request the browser
 * sends without a preflight. Any failure (an older plugin without the route, a proxy that forwards only /store, the
 * network; an unknown cart, which the store API refuses too) reads it from the store API instead.
 */
export const readCartToPay = (api: Api, cartId: string): Promise<Cart> =>
  api.simple(`/pgs/carts/${cartId}/pay-check`).then(
    (r) => r.cart,
    () => readCart(api, cartId),
  )

/** How long a read ahead may serve Pay: a shopper's pause between the card's last digit and Pay, with room to spare. */
export const READ_AHEAD_MS = 10_000

/**
 * Events that may mean the cart changed since a read: the page hidden (another tab), a tap, a key, typing, a choice or a
 * form sent outside the widget. Not seen: taps in another frame of the page, a touch whose handler cancels the click,
 * another window changing the cart (docs/widget.md#round-trips).
 */
const STALE_ON = ["visibilitychange", "click", "keydown", "input", "change", "submit"]

export type PayCheck = {
  /** The card form turned complete: Pay is the shopper's next step, so the cart is read now (once at a time). */
  complete(): void
  /** The widget changed the card session: a read made before says nothing of the new one. */
  drop(): void
  /** The cart for this Pay: the read ahead if it still holds (it serves one Pay), else a read now. */
  take(): Promise<Cart>
  stop(): void
}

/**
 * The pay check for the checkout in `host`, read ahead as the card form turns complete so Pay need not wait a round
 * trip for it. A read ahead serves one Pay, within READ_AHEAD_MS of being asked, and is dropped sooner when the cart
 * may have changed: the shopper acted on the page outside the widget (a promotion code, a shipping choice: Medusa
 * then replaces the card session; none is read ahead again until Pay) or left it (another tab), the widget changed
 * the card session, or the read failed. What it leaves open is a change this page does not see within those seconds
 * (another window or device): a payment then made on a retired session is refused by the store and given back as
 * late money (docs/reconciliation.md).
 */
export function payCheck(api: Api, cartId: string, host: Element): PayCheck {
  let ahead: Promise<Cart | void> | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  /** The shopper acted outside the widget: the storefront's change may still be on its way, so no read ahead until Pay. */
  let held = false
  const drop = () => {
    ahead = null
    clearTimeout(timer)
  }
  // Heard on the window before the page's own handlers; taps and keys in the gateway's frame never reach this page,
  // and those in the widget (Pay, the method list) are the widget's own.
  const outside = (e: Event) => {
    if (e.composedPath().includes(host)) return
    drop()
    held = true
  }
  for (const type of STALE_ON) addEventListener(type, outside, true)
  const read = () => readCartToPay(api, cartId)
  return {
    complete() {
      if (ahead || held) return
      const mine: Promise<Cart | void> = (ahead = read().catch(() => void (ahead === mine && drop())))
      timer = setTimeout(drop, READ_AHEAD_MS) // every drop() clears it: it is always the current read's
    },
    drop,
    take() {
      const mine = ahead
      drop()
      held = false
      return mine ? mine.then((cart) => cart || read()) : read()
    },
    stop() {
      drop()
      for (const type of STALE_ON) removeEventListener(type, outside, true)
    },
  }
}
