/**
 * Money after checkout (pay by link too), reconciliation, webhook retries and hostile input on every route in the
 * plain test store, under one Medusa boot (a boot costs 10–30 s; the runner still restores the database before every
 * test). Each behaviour's tests are in behaviours/, under their own describe.
 */
import { pgsStoreSuites } from "./support/store"
import orderPayments from "./behaviours/order-payments"
import orderPaymentsMore from "./behaviours/order-payments-more"
import reconciliation from "./behaviours/reconciliation"
import webhookRetry from "./behaviours/webhook-retry"
import reconcileRowReplacement from "./behaviours/reconcile-row-replacement"
import payLink from "./behaviours/pay-link"
import hostileInput from "./behaviours/hostile-input"

pgsStoreSuites([orderPayments, orderPaymentsMore, reconciliation, reconcileRowReplacement, webhookRetry, payLink, hostileInput])
