/**
 * How a shopper is told that the gateway is away or refuses the store: one error code, for the provider that
 * raises it, our store routes that answer it with 503, and storefronts (our widget) that translate it.
 */
export const GATEWAY_UNAVAILABLE = "pgs_gateway_unavailable"

export const GATEWAY_UNAVAILABLE_MESSAGE =
  "Payments with this method are unavailable right now; please try another method or again in a few minutes."
