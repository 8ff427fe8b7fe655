/**
 * Card-credential authorize (card, saved_card, network-token, wallet-one) for the Direct API: decrypt and check
 * the body's credential, then hand over to startCardTransaction. Replay answers what the transaction awaits now.
 */
import { OPERATION, type AuthorizeBody, type AuthorizeFamily } from "../api/authorize-family"
import type { SandboxContext } from "../core/context"
import { resultResponse } from "../core/views"
import type { CardCredential, PlainCard } from "./credentials"
import { decryptField } from "./crypto"
import { cardFlow } from "./flow"
import * as plain from "./plain-text"
import { startCardTransaction } from "./start"
import { decodeWalletOneToken } from "./wallet-one"

const P = "payment_method.data."

/**
 * Number, month and year in plain text, format-checked. If one of them cannot be decrypted the card is null:
 * the simulator then treats it as unmapped (spec fallback). A field that decrypts to a bad format is a 422.
 */
function decryptCard(
  ctx: SandboxContext,
  fields: { number: [string, string]; month: [string, string]; year: [string, string]; cvv?: [string, string | undefined] },
): PlainCard | null {
  const number = decryptField(ctx, fields.number[1])
  const month = decryptField(ctx, fields.month[1])
  const year = decryptField(ctx, fields.year[1])
  const cvv = fields.cvv ? decryptField(ctx, fields.cvv[1]) : null
  // Check whatever decrypted, even when the card as a whole falls back, so a wrong format is never hidden.
  const checked = {
    number: number === null ? null : plain.cardNumber(number, P + fields.number[0]),
    month: month === null ? null : plain.expirationMonth(month, P + fields.month[0]),
    year: year === null ? null : plain.expirationYear(year, P + fields.year[0]),
    cvv: cvv === null || !fields.cvv ? null : plain.cvv(cvv, P + fields.cvv[0]),
  }
  if (checked.number === null || checked.month === null || checked.year === null) return null
  return { number: checked.number, cvv: checked.cvv, expiration_month: checked.month, expiration_year: checked.year }
}

export function credentialOf(ctx: SandboxContext, method: AuthorizeBody["payment_method"]): CardCredential {
  switch (method.type) {
    case "card": {
      const d = method.data
      return {
        kind: "card",
        card: decryptCard(ctx, {
          number: ["encrypted_card_number", d.encrypted_card_number],
          month: ["encrypted_expiration_month", d.encrypted_expiration_month],
          year: ["encrypted_expiration_year", d.encrypted_expiration_year],
          cvv: ["encrypted_cvv", d.encrypted_cvv],
        }),
      }
    }
    case "saved_card": {
      const cvv = method.data.encrypted_cvv === undefined ? null : decryptField(ctx, method.data.encrypted_cvv)
      return { kind: "saved_card", payment_method_id: method.data.payment_method_id, cvv: cvv === null ? null : plain.cvv(cvv, `${P}encrypted_cvv`) }
    }
    case "network-token": {
      const d = method.data
      return {
        kind: "network-token",
        card: decryptCard(ctx, {
          number: ["encrypted_token_number", d.encrypted_token_number],
          month: ["encrypted_expiration_month", d.encrypted_expiration_month],
          year: ["encrypted_expiration_year", d.encrypted_expiration_year],
        }),
        // Assumption: a cryptogram that cannot be decrypted is not "valid", so 3-D Secure runs as for PAN_ONLY.
        cryptogram: decryptField(ctx, d.encrypted_cryptogram) || null,
        eci: d.eci ?? null,
        source: d.source ?? "network-token",
      }
    }
    case "wallet-one":
      return { kind: "wallet-one", ...decodeWalletOneToken(method.data.wallet_one_token) }
    default:
      throw new Error(`not a card payment method: ${method.type}`)
  }
}

export const cardFamily: AuthorizeFamily = {
  start(ctx, { merchant, terminal, body, req }) {
    return startCardTransaction(
      ctx,
      {
        merchant,
        terminal,
        reference: body.reference,
        description: body.description,
        amount: body.amount,
        currency: body.currency,
        transaction_type: body.transaction_type,
        credential: credentialOf(ctx, body.payment_method),
        integration_type: "DIRECT_API",
        metadata: body.metadata ?? {},
        customer: body.customer ?? null,
        browser_info: body.browser_info,
        customer_ip: body.customer_ip ?? req.remoteAddress,
        originator_url: body.originator_url || terminal.website,
        return_url: body.return_url,
        error_url: body.error_url,
        cancel_url: body.cancel_url,
        notification_url_override: body.options?.three_ds?.notification_url,
        tokenization: body.tokenization,
        // Instalments cannot be requested by server-to-server calls.
        number_of_instalments: null,
      },
      OPERATION,
    )
  },
  // While the transaction awaits the customer the pending action/redirect/form_submit is answered again.
  replay: (_ctx, tx) => (tx.status === "CREATED" && cardFlow(tx)?.pending) || resultResponse(tx),
}
