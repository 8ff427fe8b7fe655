/** medusa-payment-pgs-storefront/collection: pay an order's payment collection (money after checkout). */
export { mountCollectionPayment, returnToCollection, type CollectionOptions, type CollectionPayment, type CollectionPaid } from "./mount.js"
export type { CollectionSummary } from "./api.js"
