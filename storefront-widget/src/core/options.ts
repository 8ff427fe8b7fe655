/** What a store passes to mountCheckout (and PgsCheckout's props). */
import type { Connection } from "./api.js"
import type { Order } from "./cart.js"
import type { State } from "./flow.js"
import type { Appearance } from "./theme.js"

export type CheckoutOptions = Connection & {
  cartId: string
  /** en-US, bs-BA, ro-RO or sv-SE (else the session's, else the browser's). */
  locale?: string
  /** Only these provider ids, in this order (default: every PGS method the server says can serve the cart). */
  providers?: string[]
  /** A wallet button's token source (wallet-one, e.g. the wallet's JS); a logged-in shopper may save the card. */
  wallet?: { getToken(): Promise<string> }
  /** Extra session data per provider id (e.g. a voucher code: then no voucher picker is shown). */
  methodData?: Record<string, Record<string, unknown>>
  /** Extra data for card sessions paid through the Direct API (sandbox: `simulated_flow`). */
  sessionData?: Record<string, unknown>
  /** Light or dark theme and appearance variables (passed on to the card fields where they overlap). */
  appearance?: Appearance
  /** Raw --lib-* variables for the gateway's card fields, over everything else. */
  cssVariables?: Record<string, string>
  customerConfig?: Record<string, boolean>
  /** Method names by provider id (and `card`, `wallet`): over the terminal's names and the widget's own. */
  labels?: Record<string, string>
  /** false: no shadow root and no styles (style the `pgs-` classes yourself). */
  styles?: boolean
  onOrder?(order: Order): void
  onStateChange?(state: State): void
  /** Every failure the shopper was told about (for the store's monitoring; never carries card data). */
  onError?(error: unknown): void
}
