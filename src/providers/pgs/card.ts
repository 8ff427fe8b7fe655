/** Cards (Embedded Fields by default; Direct API for saved cards, wallet and network tokens; or the hosted page). */
import { PgsProvider } from "./provider"
import { CARD_FAMILY } from "./start"

export class PgsCardProvider extends PgsProvider {
  static override identifier = CARD_FAMILY.identifier
  protected readonly family = CARD_FAMILY

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }
}
