/**
 * Field rules shared by every PGS request and response (spec: "Conventions").
 * The client's reading of the spec: it validates requests with these schemas before sending and parses answers
 * with them. The sandbox keeps its own, independent reading (sandbox/schemas); integration-tests/contract checks
 * both against the spec's tables.
 */
import { isPossiblePhoneNumber } from "libphonenumber-js"
import { z } from "zod"

/** Integer minor units. Fractional JSON numbers are rejected separately on the raw bytes (see rejectFractionalAmounts). */
export const minorAmount = z.int().min(1).max(Number.MAX_SAFE_INTEGER)
export const currencyCode = z.string().regex(/^[A-Z]{3}$/, "must be a 3-letter ISO 4217 code")
export const countryCode = z.string().regex(/^[A-Z]{2}$/, "must be a 2-letter ISO 3166-1 alpha-2 code")
export const terminalId = z.string().min(5).max(20)
export const cardReference = z.string().min(1).max(40)
export const paymentReference = z.string().min(1).max(80)
export const paymentDescription = z.string().min(1).max(100)
export const ipAddress = z.union([z.ipv4(), z.ipv6()], { error: "must be an IPv4 or IPv6 address" })
/**
 * z.url()'s rule (trimmed, starts with http:// or https://, parses as a URL) without building a URL object: it is
 * on every authorize, and z.url() cost 2 µs of the request's ~8 µs validation (bench:client).
 */
const HTTP_PREFIX = /^https?:\/\//i
const isHttpUrl = (value: string) => {
  const trimmed = value.trim()
  return HTTP_PREFIX.test(trimmed) && URL.canParse(trimmed)
}
export const httpUrl = z.string().refine(isHttpUrl, "must be an http or https URL")
/** originator_url: http/https, # fragment allowed; omitted or empty means "the terminal website". */
export const originatorUrl = z.union([z.literal(""), httpUrl])
/** phone (spec "Conventions"): E.164, then a possible-number check (plausible length for its country code). */
export const e164Phone = z
  .string()
  .regex(/^\+[1-9]\d{1,14}$/, { error: "must be an E.164 phone number", abort: true })
  .refine((p) => isPossiblePhoneNumber(p), "is not a possible phone number for its country code")
/** An optional phone in a request: absent, null or empty means none. */
export const optionalPhone = z.union([z.literal(""), e164Phone]).nullish()
export const metadata = z.record(z.string(), z.unknown())
export const stringMetadata = z.record(z.string(), z.string())

export const TRANSACTION_STATUSES = [
  "CREATED",
  "PENDING",
  "APPROVED",
  "DECLINED",
  "CANCELED",
  "INVALID",
  "SESSION_EXPIRED",
] as const
export const transactionStatus = z.enum(TRANSACTION_STATUSES)
export type TransactionStatus = z.infer<typeof transactionStatus>
export const FINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set([
  "APPROVED",
  "DECLINED",
  "CANCELED",
  "INVALID",
  "SESSION_EXPIRED",
])

export const INITIAL_TRANSACTION_TYPES = ["PURCHASE", "AUTHORIZE", "OCT", "PAYOUT"] as const
export const MANAGEMENT_TYPES = ["CAPTURE", "REFUND", "VOID"] as const

/** Customer object inside transactions (all fields string or null). */
export const customer = z.object({
  id: z.string().nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  address: z.string().nullish(),
  city: z.string().nullish(),
  country: z.string().nullish(),
  postal_code: z.string().nullish(),
})
export type Customer = z.infer<typeof customer>
/** The customer object as a request carries it: the phone must be a possible E.164 number. */
export const customerInput = customer.extend({ phone: optionalPhone })

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
export type BrowserInfo = z.infer<typeof browserInfo>
