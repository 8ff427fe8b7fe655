/**
 * `payment_method` = `{type, data}` of POST /api/transactions/authorize, read from the "Payment method input"
 * table (first document) and the instant, voucher and wallet-redirect sections (other document).
 */
import { z } from "zod"
import { country, phone } from "./fields"

/** Each card field is encrypted on its own and Base64-encoded: never empty. */
const cipher = z.string().min(1)

const card = z.object({
  type: z.literal("card"),
  data: z.object({
    encrypted_card_number: cipher,
    encrypted_cvv: cipher,
    encrypted_expiration_month: cipher,
    encrypted_expiration_year: cipher,
  }),
})

/** encrypted_cvv "may be required depending on provider support": the sandbox's provider does not need it. */
const savedCard = z.object({
  type: z.literal("saved_card"),
  data: z.object({ payment_method_id: z.string().min(1), encrypted_cvv: cipher.optional() }),
})

export const ECI_CODES = ["00", "01", "02", "05", "06", "07"] as const
export const TOKEN_SOURCES = ["wallet-one", "wallet-two", "network-token"] as const
const networkToken = z.object({
  type: z.literal("network-token"),
  data: z
    .object({
      encrypted_token_number: cipher,
      encrypted_expiration_month: cipher,
      encrypted_expiration_year: cipher,
      encrypted_cryptogram: cipher.optional(),
      eci: z.enum(ECI_CODES).optional(),
      source: z.enum(TOKEN_SOURCES).optional(),
    })
    // A cryptogram means CRYPTOGRAM_3DS, which needs an ECI; without one it is PAN_ONLY, where ECI is omitted.
    .superRefine((d, ctx) => {
      const hasCryptogram = d.encrypted_cryptogram !== undefined
      if (hasCryptogram && d.eci === undefined)
        ctx.addIssue({ code: "custom", path: ["eci"], message: "must not be null: required with a cryptogram (CRYPTOGRAM_3DS)" })
      if (!hasCryptogram && d.eci !== undefined)
        ctx.addIssue({ code: "custom", path: ["eci"], message: "must be omitted without a cryptogram (PAN_ONLY)" })
    }),
})

const walletOne = z.object({
  type: z.literal("wallet-one"),
  data: z.object({ wallet_one_token: z.string().min(1) }),
})

export const WALLET_REDIRECT_TYPES = ["wallet-one-redirect", "wallet-two-redirect"] as const
/** `data` is an empty object (unused); a missing one is read as empty. */
const walletRedirect = z.object({
  type: z.enum(WALLET_REDIRECT_TYPES),
  data: z.object({}).default({}),
})

const providerInstant = z.object({
  type: z.literal("provider-instant"),
  data: z.object({
    email: z.email(),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    phone: phone.optional(),
    country: country.optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
    state: z.string().optional(),
    date_of_birth: z.iso.date().optional(),
    language: z.string().optional(),
    scheme_code: z.string().regex(/^\d{6}$/, "must be exactly 6 digits").optional(),
  }),
})

/** `voucher-redirect-{code}`: lower case, the prefix is mandatory. */
export const VOUCHER_CODES = [
  "ali", "blt", "chp", "gir", "glu", "gfc", "obt", "npy", "ntl", "onb", "pgf", "psc", "pch", "pwy",
  "gch", "grp", "cns", "dna", "lnj", "mah", "spx", "khp", "spi", "sft", "epd", "wlt", "idl",
] as const
type VoucherType = `voucher-redirect-${(typeof VOUCHER_CODES)[number]}`
export const VOUCHER_TYPES = VOUCHER_CODES.map((code): VoucherType => `voucher-redirect-${code}`) as [VoucherType, ...VoucherType[]]
export const isVoucherType = (type: string): type is VoucherType => (VOUCHER_TYPES as readonly string[]).includes(type)
const voucher = z.object({
  type: z.enum(VOUCHER_TYPES),
  data: z.object({ email: z.email(), first_name: z.string().min(1), last_name: z.string().min(1) }),
})

export const paymentMethod = z.discriminatedUnion("type", [
  card,
  savedCard,
  networkToken,
  walletOne,
  walletRedirect,
  providerInstant,
  voucher,
])

/** The inputs carrying card credentials: they need browser_info and may run 3-D Secure. */
export const CARD_METHOD_TYPES: ReadonlySet<string> = new Set(["card", "saved_card", "network-token", "wallet-one"])

/** The single objects, for the contract test that reads them against the spec's tables. */
export const PAYMENT_METHOD_INPUTS = { card, savedCard, networkToken, walletOne, walletRedirect, providerInstant, voucher }
