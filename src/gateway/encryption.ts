/**
 * Card and network-token fields, encrypted one by one with RSA-OAEP (SHA-256, MGF1-SHA-256) under the merchant
 * public key and Base64-encoded. The plain-text rules are checked first, so a bad expiry is refused locally
 * with the property the gateway would name; the error never repeats the value.
 */
import { constants, createPublicKey, publicEncrypt, type KeyObject } from "node:crypto"
import { GatewayValidationError } from "./errors"
import type { GatewayFieldError } from "./schemas/validation"

export type PlainCard = {
  number: string
  cvv: string
  /** 1-12, no leading zero. */
  expirationMonth: string | number
  /** 2 or 4 digits, current year or later. */
  expirationYear: string | number
}

export type PlainNetworkToken = {
  tokenNumber: string
  expirationMonth: string | number
  expirationYear: string | number
  /** Absent for PAN_ONLY credentials. */
  cryptogram?: string
  eci?: "00" | "01" | "02" | "05" | "06" | "07"
  source?: "wallet-one" | "wallet-two" | "network-token"
}

const DIGITS = /^\d+$/

export class CardEncryptor {
  private readonly key: KeyObject

  constructor(publicKeyPem: string | KeyObject, private readonly now: () => Date = () => new Date()) {
    this.key = typeof publicKeyPem === "string" ? createPublicKey(publicKeyPem) : publicKeyPem
  }

  /** One field: RSA-OAEP SHA-256 → Base64. */
  encrypt(plain: string): string {
    return publicEncrypt({ key: this.key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" }, Buffer.from(plain, "utf8")).toString("base64")
  }

  /** `payment_method` for type `card`. */
  card(card: PlainCard) {
    const base = "payment_method.data"
    const errors: GatewayFieldError[] = []
    const number = digitsOnly(card.number, `${base}.encrypted_card_number`, "card number", 12, 19, errors)
    const cvv = digitsOnly(card.cvv, `${base}.encrypted_cvv`, "CVV", 3, 4, errors)
    const month = this.month(card.expirationMonth, `${base}.encrypted_expiration_month`, errors)
    const year = this.year(card.expirationYear, `${base}.encrypted_expiration_year`, errors)
    if (errors.length) throw new GatewayValidationError(errors, true)
    return {
      type: "card" as const,
      data: {
        encrypted_card_number: this.encrypt(number),
        encrypted_cvv: this.encrypt(cvv),
        encrypted_expiration_month: this.encrypt(month),
        encrypted_expiration_year: this.encrypt(year),
      },
    }
  }

  /** `payment_method` for type `saved_card`; the CVV is optional (depends on provider support). */
  savedCard(paymentMethodId: string, cvv?: string) {
    const errors: GatewayFieldError[] = []
    const plain = cvv === undefined ? undefined : digitsOnly(cvv, "payment_method.data.encrypted_cvv", "CVV", 3, 4, errors)
    if (errors.length) throw new GatewayValidationError(errors, true)
    return {
      type: "saved_card" as const,
      data: { payment_method_id: paymentMethodId, ...(plain === undefined ? {} : { encrypted_cvv: this.encrypt(plain) }) },
    }
  }

  /** `payment_method` for type `network-token`; eci and source stay plain text. */
  networkToken(token: PlainNetworkToken) {
    const base = "payment_method.data"
    const errors: GatewayFieldError[] = []
    const number = digitsOnly(token.tokenNumber, `${base}.encrypted_token_number`, "token number", 12, 19, errors)
    const month = this.month(token.expirationMonth, `${base}.encrypted_expiration_month`, errors)
    const year = this.year(token.expirationYear, `${base}.encrypted_expiration_year`, errors)
    if (errors.length) throw new GatewayValidationError(errors, true)
    return {
      type: "network-token" as const,
      data: {
        encrypted_token_number: this.encrypt(number),
        encrypted_expiration_month: this.encrypt(month),
        encrypted_expiration_year: this.encrypt(year),
        ...(token.cryptogram ? { encrypted_cryptogram: this.encrypt(token.cryptogram) } : {}),
        ...(token.eci ? { eci: token.eci } : {}),
        ...(token.source ? { source: token.source } : {}),
      },
    }
  }

  private month(value: string | number, property: string, errors: GatewayFieldError[]): string {
    const text = String(value).trim()
    if (!/^(?:[1-9]|1[0-2])$/.test(text)) errors.push({ property, message: "expiration month must be 1 to 12 without a leading zero", params: [leaf(property)] })
    return text
  }

  private year(value: string | number, property: string, errors: GatewayFieldError[]): string {
    const text = String(value).trim()
    if (!/^(?:\d{2}|\d{4})$/.test(text)) {
      errors.push({ property, message: "expiration year must have 2 or 4 digits", params: [leaf(property)] })
      return text
    }
    const current = this.now().getUTCFullYear()
    const full = text.length === 2 ? Math.floor(current / 100) * 100 + Number(text) : Number(text)
    if (full < current) errors.push({ property, message: "expiration year must be the current year or later", params: [leaf(property), String(current)] })
    return text
  }
}

const leaf = (property: string) => property.split(".").pop()!

function digitsOnly(value: string, property: string, what: string, min: number, max: number, errors: GatewayFieldError[]): string {
  const text = String(value ?? "")
  if (!DIGITS.test(text)) errors.push({ property, message: `${what} must contain digits only (no spaces)`, params: [leaf(property)] })
  else if (text.length < min || text.length > max)
    errors.push({ property, message: `${what} must have ${min} to ${max} digits`, params: [leaf(property), String(min), String(max), String(text.length)] })
  return text
}
