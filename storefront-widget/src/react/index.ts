/**
 * React bindings: the core does the work; these only mount it into a div and follow its state.
 *   <PgsCheckout sdk={sdk} cartId={cart.id} locale="sv-SE" onOrder={...} />
 *   <PgsReturn sdk={sdk} checkoutUrl="/checkout" onResult={...} />
 */
import { createElement, useEffect, useRef, useState, type ReactElement } from "react"
import { mountCheckout, mountReturn, type Checkout, type CheckoutOptions, type ReturnOptions, type State } from "../core/index.js"

type Props<T> = T & { id?: string; className?: string }

/** Mounts the checkout into the returned ref; remounts when the cart changes, follows `locale` without remounting. */
export function usePgsCheckout(options: CheckoutOptions) {
  const ref = useRef<HTMLDivElement>(null)
  const widget = useRef<Checkout>(null)
  const latest = useRef<CheckoutOptions>(options)
  latest.current = options
  const [state, setState] = useState<State>("loading")
  useEffect(() => {
    const o = latest.current!
    // Mounted a tick later: React's StrictMode (on in `next dev`) mounts, unmounts and mounts again at once, and two
    // widgets racing for one cart would each start a card session (Medusa keeps only the newer: one gateway session wasted).
    const t = setTimeout(() => {
      widget.current = mountCheckout(ref.current!, { ...o, onStateChange: (s) => (setState(s), o.onStateChange?.(s)), onOrder: (order) => latest.current!.onOrder?.(order) })
    })
    return () => {
      clearTimeout(t)
      widget.current?.destroy()
      widget.current = null
    }
  }, [options.cartId])
  useEffect(() => {
    if (options.locale) widget.current?.setLocale(options.locale)
  }, [options.locale])
  return { ref, state }
}

export function PgsCheckout({ id, className, ...options }: Props<CheckoutOptions>): ReactElement {
  const { ref, state } = usePgsCheckout(options as CheckoutOptions)
  return createElement("div", { ref, id, className, "data-state": state })
}

export function PgsReturn({ id, className, ...options }: Props<ReturnOptions>): ReactElement {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    // A tick later, as above: StrictMode's second mount would complete the cart twice and report twice.
    const t = setTimeout(() => {
      const r = mountReturn(ref.current!, options as ReturnOptions)
      if (options.locale) r.setLocale(options.locale)
    })
    return () => clearTimeout(t)
  }, [])
  return createElement("div", { ref, id, className })
}

export type { CheckoutOptions, ReturnOptions, State }
