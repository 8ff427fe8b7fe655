/** `payment_method` inputs of POST /api/transactions/authorize (both spec documents). */
import { z } from "zod"
import { e164Phone } from "./common"

const encrypted = z.string().min(1)

export const cardInput = z.object({
  type: z.literal("card"),
  data: z.object({
    encrypted_card_number: encrypted,
    encrypted_cvv: encrypted,
    encrypted_expiration_month: encrypted,
    encrypted_expiration_year: encrypted,
  }),
})

export const savedCardInput = z.object({
  type: z.literal("saved_card"),
  data: z.object({ payment_method_id: z.string().min(1), encrypted_cvv: encrypted.optional() }),
})

export const ECI_VALUES = ["00", "01", "02", "05", "06", "07"] as const

/**
 * ECI: required for CRYPTOGRAM_3DS (a cryptogram is sent), omitted for PAN_ONLY (no cryptogram). What is wrong with
 * a token's ECI, if anything; the gateway's schema and the store's initiate input each word it their own way.
 */
export function eciProblem(cryptogram: unknown, eci: unknown): "missing" | "unexpected" | null {
  if (cryptogram !== undefined && eci === undefined) return "missing"
  if (cryptogram === undefined && eci !== undefined) return "unexpected"
  return null
}
export const networkTokenInput = z.object({
  type: z.literal("network-token"),
  data: z.object({
    encrypted_token_number: encrypted,
    encrypted_expiration_month: encrypted,
    encrypted_expiration_year: encrypted,
    encrypted_cryptogram: encrypted.optional(),
    eci: z.enum(ECI_VALUES).optional(),
    source: z.enum(["wallet-one", "wallet-two", "network-token"]).optional(),
  })
    .superRefine((data, ctx) => {
      const problem = eciProblem(data.encrypted_cryptogram, data.eci)
      if (problem === "missing") ctx.addIssue({ code: "custom", path: ["eci"], message: "must not be null: required with a cryptogram (CRYPTOGRAM_3DS)" })
      if (problem === "unexpected") ctx.addIssue({ code: "custom", path: ["eci"], message: "must be omitted without a cryptogram (PAN_ONLY)" })
    }),
})

export const walletOneInput = z.object({
  type: z.literal("wallet-one"),
  data: z.object({ wallet_one_token: z.string().min(1) }),
})

export const walletRedirectInput = z.object({
  type: z.enum(["wallet-one-redirect", "wallet-two-redirect"]),
  data: z.object({}).optional().default({}),
})

export const providerInstantInput = z.object({
  type: z.literal("provider-instant"),
  data: z.object({
    email: z.email(),
    first_name: z.string().min(1),
    last_name: z.string().min(1),
    phone: e164Phone.optional(),
    country: z.string().regex(/^[A-Z]{2}$/).optional(),
    address: z.string().optional(),
    city: z.string().optional(),
    postal_code: z.string().optional(),
    state: z.string().optional(),
    date_of_birth: z.iso.date().optional(),
    language: z.string().optional(),
    scheme_code: z.string().regex(/^\d{6}$/, "must be exactly 6 digits").optional(),
  }),
})

/** The 27 codes of the voucher-redirect family. Type strings are lowercase with the mandatory prefix. */
export const VOUCHER_CODES = [
  "ali", "blt", "chp", "gir", "glu", "gfc", "obt", "npy", "ntl", "onb", "pgf", "psc", "pch", "pwy",
  "gch", "grp", "cns", "dna", "lnj", "mah", "spx", "khp", "spi", "sft", "epd", "wlt", "idl",
] as const
export type VoucherCode = (typeof VOUCHER_CODES)[number]
export const VOUCHER_TYPES = VOUCHER_CODES.map((c) => `voucher-redirect-${c}` as const)
export const voucherInput = z.object({
  type: z.enum(VOUCHER_TYPES as unknown as [`voucher-redirect-${VoucherCode}`, ...`voucher-redirect-${VoucherCode}`[]]),
  data: z.object({ email: z.email(), first_name: z.string().min(1), last_name: z.string().min(1) }),
})

export const paymentMethodInput = z.discriminatedUnion("type", [
  cardInput,
  savedCardInput,
  networkTokenInput,
  walletOneInput,
  walletRedirectInput,
  providerInstantInput,
  voucherInput,
])
export type PaymentMethodInput = z.infer<typeof paymentMethodInput>
export type PaymentMethodType = PaymentMethodInput["type"]

/** Methods that carry card credentials and therefore need browser_info and may run 3-D Secure. */
export const CARD_METHOD_TYPES: ReadonlySet<string> = new Set(["card", "saved_card", "network-token", "wallet-one"])
export const isVoucherType = (t: string): t is `voucher-redirect-${VoucherCode}` =>
  (VOUCHER_TYPES as readonly string[]).includes(t)
