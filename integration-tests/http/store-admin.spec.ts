/**
 * The admin's behaviours that need the plain test store, a taxed cart's capture and refund, and the plugin's spans
 * with tracing on (registered for those tests only), under one Medusa boot (a boot costs 10–30 s; the runner
 * still restores the database before every test). Each behaviour's tests are in behaviours/, under their own describe.
 */
import { pgsStoreSuites } from "./support/store"
import adminOrders from "./behaviours/admin-orders"
import adminSettings from "./behaviours/admin-settings"
import captureOnFulfillmentTerminal from "./behaviours/capture-on-fulfillment-terminal"
import partialCapture from "./behaviours/partial-capture"
import adminAttention from "./behaviours/admin-attention"
import payouts from "./behaviours/payouts"
import taxedCart from "./behaviours/taxed-cart"
import tracing from "./behaviours/tracing"

pgsStoreSuites([adminOrders, adminSettings, captureOnFulfillmentTerminal, partialCapture, adminAttention, payouts, taxedCart, tracing])
