/** medusa-payment-pgs-storefront/collection: pay an order's payment collection (money after checkout). */
export { mountCollectionPayment, returnToCollection, type CollectionOptions, type CollectionPayment, type CollectionPaid } from "./mount"
export type { CollectionSummary } from "./api"
