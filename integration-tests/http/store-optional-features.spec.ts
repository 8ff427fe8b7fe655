/**
 * A store with the optional features on, as an operator enables several at once: consent to later charges on a saved
 * card, capture on fulfillment, network tokens from the storefront, one proxy in front (its X-Forwarded-For believed)
 * and an originator URL for alternative payments. One Medusa boot (a boot costs 10–30 s; the runner still restores
 * the database before every test); each behaviour's tests are in behaviours/, under their own describe, and each
 * behaviour names the option it needs (`storeEnv`). None of these options changes what another of these behaviours
 * observes. Not here: raw card data (SAQ D: card fields a network-token test expects refused are taken) and automatic
 * refunds off (redirect-rules expects late money given back): store-saq-d.spec.ts; a short write timeout:
 * checkout-faults.spec.ts.
 */
import { pgsStoreSuites } from "./support/store"
import chargeSavedCard, { storeEnv as savedCardConsent } from "./behaviours/charge-saved-card"
import captureOnFulfillment, { storeEnv as captureOnFulfillmentOn } from "./behaviours/capture-on-fulfillment"
import checkoutNetworkToken, { storeEnv as networkTokens } from "./behaviours/checkout-network-token"
import clientAddress, { storeEnv as oneProxy } from "./behaviours/client-address"
import redirectRules, { storeEnv as originatorUrl } from "./behaviours/redirect-rules"

pgsStoreSuites([chargeSavedCard, captureOnFulfillment, checkoutNetworkToken, clientAddress, redirectRules], {
  env: { ...savedCardConsent, ...captureOnFulfillmentOn, ...networkTokens, ...oneProxy, ...originatorUrl },
})
