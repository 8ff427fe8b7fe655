/**
 * Behaviours of the store's session routes and their other writers, under one Medusa boot of the plain test store.
 * (They could join store-checkout.spec.ts's boot; kept apart while that file had another owner.)
 */
import { pgsStoreSuites } from "./support/store"
import sessionWriters from "./behaviours/session-writers"
import cartSessionRoute from "./behaviours/cart-session-route"
import collectionMethods from "./behaviours/collection-methods"

pgsStoreSuites([sessionWriters, cartSessionRoute, collectionMethods])
