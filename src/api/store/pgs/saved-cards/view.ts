import type { SavedCard } from "../../../../modules/pgs/queries"

/** What the storefront may see of a saved card: brand, masked number, expiry. Never gateway ids beyond ours. */
export const savedCardView = (card: SavedCard) => ({
  id: card.id,
  brand: card.brand,
  masked: card.masked,
  last_4: card.last_4,
  exp_month: card.exp_month,
  exp_year: card.exp_year,
})
