/**
 * Public entry points whose code is not needed to paint the checkout load it when first called, so a storefront's
 * first paint carries only the payment step. Same signature as the module it loads.
 */
import type * as ReturnPage from "./return-page.js"

/** The return page ({store}/checkout/return): completes the cart again and follows the payment until it is decided. */
export function mountReturn(...args: Parameters<typeof ReturnPage.mountReturn>): ReturnType<typeof ReturnPage.mountReturn> {
  const mounted = import("./return-page.js").then((m) => m.mountReturn(...args))
  return { result: mounted.then((m) => m.result), setLocale: (l) => mounted.then((m) => m.setLocale(l)) }
}

/**
 * Medusa's cart completion repeated until it answers (cart.ts), for a storefront that completes the cart itself: the
 * return page's bundle carries it (the checkout completes through its flow and never needs it).
 */
export const completeCart = (...args: Parameters<typeof ReturnPage.completeCart>): ReturnType<typeof ReturnPage.completeCart> =>
  import("./return-page.js").then((m) => m.completeCart(...args))
