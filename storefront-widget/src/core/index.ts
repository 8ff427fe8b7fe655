/** medusa-payment-pgs-storefront: the framework-free core. */
export { mountCheckout, CARD_PROVIDER, type Checkout, type CheckoutOptions } from "./checkout"
export { mountReturn, rememberReturn, type ReturnOptions, type ReturnResult } from "./return-page"
export { connect, type Connection, type SdkLike } from "./api"
export { completeCart, type Completion } from "./cart"
export { Machine, type State } from "./machine"
export { runChallenge, runFingerprint, type NextAction } from "./three-ds"
export { LOCALES, resolveLocale, translator, type Locale } from "./i18n"
export { isPgsProvider, pgsProviderInfo, pgsProviderIds, PGS_FAMILIES, type PgsProviderInfo } from "./providers"
