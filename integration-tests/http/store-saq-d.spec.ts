/**
 * A store in PCI DSS scope SAQ D (raw card fields through the Direct API) whose follow-ups are left to a person:
 * late money is listed instead of refunded, and an abandoned bank order is never canceled. One Medusa boot (a boot
 * costs 10–30 s; the runner still restores the database before every test); each behaviour's tests are in
 * behaviours/, under their own describe, and each behaviour names the options it needs (`storeEnv`). Neither
 * behaviour's options touch what the other observes (the raw card tests make no late money and run no reconciliation;
 * the reconciliation tests send no card data).
 */
import { pgsStoreSuites } from "./support/store"
import checkoutRawCard, { storeEnv as saqD } from "./behaviours/checkout-raw-card"
import reconciliationSettings, { storeEnv as followUpsByHand } from "./behaviours/reconciliation-settings"

pgsStoreSuites([checkoutRawCard, reconciliationSettings], { env: { ...saqD, ...followUpsByHand } })
