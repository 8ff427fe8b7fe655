/**
 * The sandbox's own reading of the spec's field rules ("Conventions", "Limits", the Customer and browser-info
 * tables of the first document). The sandbox imports nothing from src/: this is the second, independent reading
 * that integration-tests/contract checks against the spec's tables, next to the client's.
 */
import { isPossiblePhoneNumber } from "libphonenumber-js"
import { z } from "zod"

/**
 * amount: integer (int64) minor units. A JSON string or a fraction fails here; `100.00`, which JSON.parse reads
 * as 100, is caught on the raw bytes (errors.ts). Assumption: a zero or negative amount is refused (not shown),
 * and JavaScript cannot hold integers above 2^53 - 1 exactly.
 */
export const amount = z.int().min(1).max(Number.MAX_SAFE_INTEGER)
/** currency: 3 letters (ISO 4217). Assumption: upper case, and membership of the ISO list is not checked. */
export const currency = z.string().regex(/^[A-Z]{3}$/, "must be 3 upper-case letters (ISO 4217)")
/** country: 2 letters (ISO 3166-1 alpha-2), upper case. */
export const country = z.string().regex(/^[A-Z]{2}$/, "must be 2 upper-case letters (ISO 3166-1 alpha-2)")
/** terminal_id: 5 to 20 characters. */
export const terminalId = z.string().min(5).max(20)
/** reference of authorize, sessions, the instant and voucher methods and the hosted page: 1 to 40. */
export const shortReference = z.string().min(1).max(40)
/**
 * reference of payments and payouts: 1 to 80. The payout section also says 40 somewhere; the sandbox, playing the
 * gateway, accepts what the wider rule allows (a client should send at most 40).
 */
export const longReference = z.string().min(1).max(80)
/** description of payments, payouts and the hosted page: 1 to 100. */
export const boundedDescription = z.string().min(1).max(100)
/** description where no limit is written (authorize, sessions): required, so not empty. */
export const description = z.string().min(1)

export const ip = z.union([z.ipv4(), z.ipv6()], { error: "must be an IPv4 or IPv6 address" })
/** Redirect targets (return_url, error_url, ...). Assumption: they must be http(s) URLs. */
export const webUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" })
/** originator_url: http/https, a # fragment allowed; omitted or empty means the terminal's website. */
export const originatorUrl = z.union([z.literal(""), webUrl])

/** phone: E.164, then a possible-number check (a plausible length for its country code). */
export const phone = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/, { error: "must be an E.164 phone number", abort: true })
  .refine(isPossiblePhoneNumber, "is not a possible phone number for its country code")
/** A phone in an optional customer block: absent, null or empty means none. */
export const optionalPhone = z.union([z.literal(""), phone]).nullish()

export const metadata = z.record(z.string(), z.unknown())
/** manage: "metadata | object of strings". */
export const stringMetadata = z.record(z.string(), z.string())

/** Customer object: every field string or null. In requests `customer.id` names an existing customer. */
const nullableText = z.string().nullish()
export const customerInput = z.object({
  id: nullableText,
  first_name: nullableText,
  last_name: nullableText,
  email: nullableText,
  phone: optionalPhone,
  address: nullableText,
  city: nullableText,
  country: nullableText,
  postal_code: nullableText,
})
export type Customer = z.output<typeof customerInput>

/** browser_info: required for card transactions; every field of the table is needed to run 3-D Secure. */
export const browserInfo = z.object({
  user_agent: z.string().min(1),
  accept_header: z.string().min(1),
  java_enabled: z.boolean(),
  color_depth: z.int(),
  screen_height: z.int(),
  screen_width: z.int(),
  time_zone_offset: z.int(),
  language: z.string().min(1),
})
export type BrowserInfo = z.output<typeof browserInfo>
