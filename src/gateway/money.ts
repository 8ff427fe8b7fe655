/**
 * Major ↔ minor units per ISO 4217 exponent (currency-codes' `digits`), exactly: the input is turned into a
 * decimal string and shifted digit by digit, never through a float. A value with more decimals than the
 * currency has (0.001 EUR, 1.5 JPY) is refused unless the caller asks for it to be rounded (half away from zero).
 */
import currencyCodes from "currency-codes"
import { z } from "zod"

export const minorUnits = z.int().brand<"MinorUnits">()
export type MinorUnits = z.infer<typeof minorUnits>

/** Medusa's raw BigNumber `{value, precision}`, bignumber.js-like objects, or plain values. */
export type MoneyInput =
  | string
  | number
  | bigint
  | { value: string | number }
  | { raw: { value: string | number } }
  | { toFixed(): string }
  | { toString(): string }
  | { valueOf(): string | number | bigint }

export class MoneyError extends Error {
  override name = "MoneyError"
}

export function currencyExponent(currency: string): number {
  const record = currencyCodes.code(currency.toUpperCase())
  if (!record || !Number.isInteger(record.digits)) throw new MoneyError(`Unknown ISO 4217 currency: ${currency}`)
  return record.digits
}

/** Every ISO 4217 code with a defined exponent. */
export const isoCurrencies = (): string[] => currencyCodes.data.filter((c) => Number.isInteger(c.digits)).map((c) => c.code)

function toDecimalString(input: MoneyInput): string {
  if (typeof input === "string") return input.trim()
  if (typeof input === "bigint") return input.toString()
  if (typeof input === "number") {
    if (!Number.isFinite(input)) throw new MoneyError(`Not a finite amount: ${input}`)
    // String(number) is the shortest string that round-trips, so 0.1 stays "0.1" (it may use an exponent).
    return String(input)
  }
  if (input && typeof input === "object") {
    const o = input as Record<string, unknown>
    if (o.raw && typeof o.raw === "object" && "value" in (o.raw as object)) return toDecimalString((o.raw as { value: string | number }).value)
    if ("value" in o && (typeof o.value === "string" || typeof o.value === "number")) return toDecimalString(o.value)
    // bignumber.js: toFixed() without digits prints every digit without an exponent.
    if (typeof o.toFixed === "function") return String((o.toFixed as () => string)())
    const primitive = (o.valueOf as () => unknown)()
    if (typeof primitive === "string" || typeof primitive === "number" || typeof primitive === "bigint") return toDecimalString(primitive)
    if (typeof o.toString === "function" && o.toString !== Object.prototype.toString) return String(o.toString()).trim()
  }
  throw new MoneyError("Unsupported amount value")
}

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

/** Parse a decimal string into sign, digits and a power-of-ten scale: value = sign * digits * 10^-scale. */
function parseDecimal(text: string): { negative: boolean; digits: bigint; scale: number } {
  const m = DECIMAL.exec(text)
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new MoneyError(`Not a decimal amount: "${text}"`)
  const fraction = m[3] ?? ""
  const exponent = m[4] ? Number(m[4]) : 0
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) throw new MoneyError(`Exponent out of range: "${text}"`)
  return { negative: m[1] === "-", digits: BigInt((m[2] || "0") + fraction), scale: fraction.length - exponent }
}

/**
 * How a fraction of a minor unit is treated: refused (MoneyError), or rounded half away from zero, as
 * Intl.NumberFormat shows an amount by default (30.345 EUR → 30.35).
 */
export type MinorUnitRounding = "refuse" | "half-away-from-zero"

/** Major units (Medusa) → integer minor units (gateway). Throws MoneyError instead of rounding, unless asked to round. */
export function toMinorUnits(amount: MoneyInput, currency: string, rounding: MinorUnitRounding = "refuse"): MinorUnits {
  const exponent = currencyExponent(currency)
  const text = toDecimalString(amount)
  const { negative, digits, scale } = parseDecimal(text)
  const shift = scale - exponent
  let minor: bigint
  if (shift <= 0) minor = digits * 10n ** BigInt(-shift)
  else {
    const divisor = 10n ** BigInt(shift)
    const remainder = digits % divisor
    if (remainder !== 0n && rounding === "refuse")
      throw new MoneyError(`${text} ${currency.toUpperCase()} has more decimals than ${currency.toUpperCase()} has (${exponent}); refusing to round`)
    // The sign is applied below, so rounding the magnitude up at a half rounds away from zero.
    minor = digits / divisor + (remainder * 2n >= divisor ? 1n : 0n)
  }
  if (negative) minor = -minor
  if (minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER))
    // The gateway's amounts are int64 minor units, but JSON numbers are exact only up to 2^53.
    throw new MoneyError(`${text} ${currency.toUpperCase()} is beyond the largest amount that can be sent, ${fromMinorUnits(Number.MAX_SAFE_INTEGER, currency)} ${currency.toUpperCase()}`)
  return Number(minor) as MinorUnits
}

/** Integer minor units → major units as an exact decimal string with the currency's decimals ("10.50", "1000", "1.005"). */
export function fromMinorUnits(minor: number | bigint, currency: string): string {
  const exponent = currencyExponent(currency)
  if (typeof minor === "number" && !Number.isSafeInteger(minor)) throw new MoneyError(`Minor units must be a safe integer, got ${minor}`)
  const value = BigInt(minor)
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, "0")
  const whole = digits.slice(0, digits.length - exponent)
  const fraction = exponent ? `.${digits.slice(digits.length - exponent)}` : ""
  return `${negative ? "-" : ""}${whole}${fraction}`
}
