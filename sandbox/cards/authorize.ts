/** Card-credential authorize (card, saved_card, network-token, wallet-one). Owned by the cards module. */
import type { AuthorizeFamily } from "../api/authorize"
import { resultResponse } from "../core/views"

export const cardFamily: AuthorizeFamily = {
  start() {
    throw new Error("not implemented yet")
  },
  replay: (_ctx, tx) => resultResponse(tx),
}
