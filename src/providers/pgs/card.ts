/** Cards (Embedded Fields by default; Direct API for saved cards, wallet and network tokens). */
import { PgsBaseProvider } from "./base"

export class PgsCardProvider extends PgsBaseProvider {
  static override identifier = "pgs"

  constructor(cradle: Record<string, unknown>, options: Record<string, unknown>) {
    super(cradle, options)
  }
}
