/**
 * A Direct API payment method chosen by the storefront → the gateway's payment_method (sealed by the caller)
 * and a public description of it. Checks ownership of saved cards and the PCI scope for raw card fields.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import type { PgsClient, PaymentMethodInput } from "../../../../gateway"
import { findSavedCard } from "../../../../modules/pgs/queries"
import type { DirectPaymentMethodInput } from "../../initiate-input"
import type { PgsProviderOptions } from "../../../../modules/pgs/options"
import type { PublicPaymentMethod } from "../../../../payments/session-data"

export type PreparedMethod = { publicMethod: PublicPaymentMethod; gatewayMethod: PaymentMethodInput; gatewayCustomerId?: string }

export async function prepareDirectMethod(
  deps: { client: PgsClient; knex: Knex | null; options: PgsProviderOptions },
  method: DirectPaymentMethodInput,
  context: PaymentProviderContext | undefined,
): Promise<PreparedMethod> {
  switch (method.type) {
    case "saved_card": {
      const customerId = context?.customer?.id
      // Our id (GET /store/pgs/saved-cards) or the gateway's (Medusa's listPaymentMethods) both name a card.
      const lookup = method.saved_card_id.startsWith("pgscard_") ? { id: method.saved_card_id } : { payment_method_id: method.saved_card_id }
      const card = customerId && deps.knex ? await findSavedCard(deps.knex, lookup) : null
      // One message for "unknown", "someone else's" and "deleted": never reveal that another customer's card exists.
      if (!card || card.customer_id !== customerId || card.status !== "ACTIVE")
        throw new MedusaError(MedusaError.Types.NOT_FOUND, "data.payment_method.saved_card_id is not a saved card of the logged-in customer")
      return {
        publicMethod: { type: "saved_card", saved_card_id: card.payment_method_id, brand: card.brand, last_4: card.last_4 },
        gatewayMethod: { type: "saved_card", data: { payment_method_id: card.payment_method_id } },
        gatewayCustomerId: card.gateway_customer_id,
      }
    }
    case "wallet-one":
      return { publicMethod: { type: "wallet-one" }, gatewayMethod: { type: "wallet-one", data: { wallet_one_token: method.token } } }
    case "network-token":
      return {
        publicMethod: { type: "network-token" },
        gatewayMethod: deps.client.encryption.networkToken({
          tokenNumber: method.token_number,
          expirationMonth: method.expiration_month,
          expirationYear: method.expiration_year,
          cryptogram: method.cryptogram,
          eci: method.eci,
          source: method.source,
        }),
      }
    case "card":
      if (deps.options.rawCardDataPciScope !== "SAQ_D")
        throw new MedusaError(
          MedusaError.Types.NOT_ALLOWED,
          'data.payment_method.type "card" (raw card fields) is refused: only a merchant in PCI DSS scope SAQ D may take card data on its server (option rawCardDataPciScope). Use Embedded Fields.',
        )
      return {
        publicMethod: { type: "card" },
        gatewayMethod: deps.client.encryption.card({
          number: method.number,
          cvv: method.cvv,
          expirationMonth: method.expiration_month,
          expirationYear: method.expiration_year,
        }),
      }
  }
}
