/**
 * Checkout behaviours that need the plain test store, under one Medusa boot (a boot costs 10–30 s; the runner still
 * restores the database before every test). Each behaviour's tests are in behaviours/, under their own describe.
 */
import { pgsStoreSuites } from "./support/store"
import harness from "./behaviours/harness"
import cardCheckout from "./behaviours/card-checkout"
import paymentMethods from "./behaviours/payment-methods"
import cartPaymentSession from "./behaviours/cart-payment-session"
import publicPaymentData from "./behaviours/public-payment-data"
import threeDsDecidedByGateway from "./behaviours/three-ds-decided-by-gateway"
import checkoutDirect from "./behaviours/checkout-direct"
import cardTesting from "./behaviours/card-testing"
import sessionWriters from "./behaviours/session-writers"
import cartSessionRoute from "./behaviours/cart-session-route"
import collectionMethods from "./behaviours/collection-methods"
import sessionClientInfo from "./behaviours/session-client-info"
import payCheck, { PAY_CHECK_STORE_CORS } from "./behaviours/pay-check"

pgsStoreSuites([
  harness,
  cardCheckout,
  paymentMethods,
  cartPaymentSession,
  publicPaymentData,
  threeDsDecidedByGateway,
  checkoutDirect,
  cardTesting,
  sessionWriters,
  cartSessionRoute,
  collectionMethods,
  sessionClientInfo,
  payCheck,
], { env: { STORE_CORS: PAY_CHECK_STORE_CORS } })
