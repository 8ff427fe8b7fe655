/**
 * The beneficiary as the gateway needs it, and as we may keep it: masked for display, a keyed fingerprint to
 * recognize a retry naming the same beneficiary, and the gateway's form sealed (AES-GCM, key from the client
 * secret) so the workflow engine, which may checkpoint step inputs to the database, never holds a full number.
 */
import { createHmac, hkdfSync } from "node:crypto"
import type { PgsClient } from "../../gateway"
import { Sealer } from "../../payments/seal"
import type { PayoutInput } from "./input"

type Beneficiary = PayoutInput["beneficiary"]

export type BeneficiaryRecord = {
  method: Beneficiary["type"]
  transaction_type: "PAYOUT" | "OCT"
  masked: string
  beneficiary_name: string | null
  beneficiary_fingerprint: string
  /** The gateway's `beneficiary` (bank) or `payment_method` (card, fields encrypted), sealed. */
  sealed: string
}

const sealContext = (reference: string) => `payout:${reference}`

/** Last 4 visible, as the gateway masks accounts. */
export const maskAccount = (accountNumber: string) => `****${accountNumber.slice(-4)}`
/** First 6 and last 4 visible: the most PCI DSS allows to display. */
export const maskCard = (number: string) => `${number.slice(0, 6)}${"*".repeat(number.length - 10)}${number.slice(-4)}`

function fingerprint(secret: string, identity: unknown[]): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "medusa-payment-pgs", "payout-beneficiary", 32))
  return createHmac("sha256", key).update(JSON.stringify(identity)).digest("base64url")
}

/** The gateway's form of the beneficiary; a card is encrypted with the merchant public key here, on the server. */
function gatewayForm(client: PgsClient, b: Beneficiary): Record<string, unknown> {
  if (b.type === "card")
    return client.encryption.card({ number: b.number, cvv: b.cvv, expirationMonth: b.expiration_month, expirationYear: b.expiration_year })
  const { type, ...data } = b
  return { type, data }
}

export function recordBeneficiary(deps: { client: PgsClient; secret: string }, reference: string, b: Beneficiary): BeneficiaryRecord {
  const sealed = new Sealer(deps.secret).seal({ payment_method: gatewayForm(deps.client, b) }, sealContext(reference))
  if (b.type === "card")
    return {
      method: "card",
      transaction_type: b.transaction_type,
      masked: maskCard(b.number),
      beneficiary_name: null,
      beneficiary_fingerprint: fingerprint(deps.secret, ["card", b.number, b.expiration_month, b.expiration_year]),
      sealed,
    }
  return {
    method: "bank_account",
    transaction_type: "PAYOUT",
    masked: maskAccount(b.account_number),
    beneficiary_name: b.account_name,
    beneficiary_fingerprint: fingerprint(deps.secret, ["bank_account", b.account_number, b.account_name, b.ifsc ?? null, b.bank_code ?? null]),
    sealed,
  }
}

/** The gateway form sealed for this reference; throws SealError if it was made for another one or altered. */
export function openBeneficiary(secret: string, reference: string, sealed: string): Record<string, unknown> {
  const opened = new Sealer(secret).open(sealed, sealContext(reference)).payment_method
  if (!opened) throw new Error("the sealed beneficiary is empty")
  return opened
}
