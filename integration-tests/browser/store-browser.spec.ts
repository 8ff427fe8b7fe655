/**
 * Browser behaviours that need the plain store, under one Medusa boot, one Chromium and one dashboard signed in once
 * (the runner still restores the database before every test). Each behaviour's tests are in behaviours/, under
 * their own describe: the admin extension in the dashboard, partial capture, Needs attention, money after checkout
 * in the dashboard, and the shopper's payment-collection page. Screenshots land in artifacts/screenshots/.
 */
import { LOCAL_NETWORK_AS_PUBLIC } from "./admin-support"
import { browserStoreSuites } from "./browser-store"
import { describeBrowser } from "./support"
import adminDashboard from "./behaviours/admin-dashboard"
import adminCapture from "./behaviours/admin-capture"
import adminAttention from "./behaviours/admin-attention"
import adminOrderPayment from "./behaviours/admin-order-payment"
import orderPayment, { ORDER_PAYMENT_STORE_CORS } from "./behaviours/order-payment"

jest.setTimeout(240_000)

describeBrowser("the plain store in Chromium", () => {
  browserStoreSuites([adminDashboard, adminCapture, adminAttention, adminOrderPayment, orderPayment], {
    env: { STORE_CORS: ORDER_PAYMENT_STORE_CORS },
    chromiumArgs: [LOCAL_NETWORK_AS_PUBLIC],
  })
})
