/**
 * The plain-text formats the spec fixes for card fields before encryption. A field that decrypts but breaks
 * its format is a 422 naming the encrypted field (the merchant encrypted the wrong thing).
 */
import { rejectField } from "./errors"

// Assumption: surrounding whitespace (e.g. a trailing newline from a shell) is trimmed; inner spaces are refused,
// because the spec says "digits only without spaces" (the simulator's "whitespace stripped" is then moot).
export function cardNumber(plain: string, property: string): string {
  const value = plain.trim()
  if (!/^\d+$/.test(value)) throw rejectField(property, "must contain digits only, without spaces")
  if (value.length < 12 || value.length > 19) throw rejectField(property, "must be 12 to 19 digits long", ["12", "19", String(value.length)])
  return value
}

export function cvv(plain: string, property: string): string {
  const value = plain.trim()
  if (!/^\d{3,4}$/.test(value)) throw rejectField(property, "must be 3 or 4 digits")
  return value
}

export function expirationMonth(plain: string, property: string): number {
  const value = plain.trim()
  if (!/^([1-9]|1[0-2])$/.test(value)) throw rejectField(property, "must be a month from 1 to 12 without a leading zero")
  return Number(value)
}

/** 2-digit years are 20yy. The year must be the current one or later (the month is not checked, as the spec says). */
export function expirationYear(plain: string, property: string, now = new Date()): number {
  const value = plain.trim()
  if (!/^(\d{2}|\d{4})$/.test(value)) throw rejectField(property, "must be a 2-digit or 4-digit year")
  const year = value.length === 2 ? 2000 + Number(value) : Number(value)
  if (year < now.getUTCFullYear()) throw rejectField(property, "must be the current or a future year", [String(now.getUTCFullYear())])
  return year
}
