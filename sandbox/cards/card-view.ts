/** How a card shows in transactions and webhooks: brand, masked PAN, hash, expiry date. */
import { createHmac, randomBytes } from "node:crypto"
import type { PaymentMethodView } from "../core/types"

export type Brand = "VISA" | "MASTERCARD"

/** Only the two networks the spec enumerates; anything else has no brand. */
export function brandOf(number: string): Brand | null {
  if (/^4/.test(number)) return "VISA"
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return "MASTERCARD"
  return null
}

/** 400000******1000: first six and last four digits. */
export const maskPan = (number: string) => `${number.slice(0, 6)}${"*".repeat(Math.max(number.length - 10, 0))}${number.slice(-4)}`

/**
 * A stable fingerprint of the PAN, so a merchant can tell the same card apart without seeing it. Keyed with a
 * per-process secret: a plain hash with a known salt could be reversed from the masked digits in milliseconds.
 */
const HASH_KEY = randomBytes(32)
export const panHash = (number: string) => createHmac("sha256", HASH_KEY).update(number).digest("hex")

/** Last day of the expiry month, YYYY-MM-DD. */
export function expiryDate(month: number, year: number): string {
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return `${year}-${String(month).padStart(2, "0")}-${String(last).padStart(2, "0")}`
}

export function cardView(type: string, number: string | null, token: string | null = null): PaymentMethodView {
  return {
    type,
    brand: number ? brandOf(number) : null,
    masked: number ? maskPan(number) : null,
    method: "card",
    hash: number ? panHash(number) : null,
    token,
  }
}
