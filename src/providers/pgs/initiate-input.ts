/**
 * What a storefront may send as payment session data when it initiates a PGS session. Everything else it sends
 * is dropped; secrets in here (wallet token, card fields) are sealed before they are stored.
 */
import { z } from "zod"
import { browserInfo, ECI_VALUES, eciProblem } from "../../gateway/schemas"
import { merchantConsentInput } from "../../payments/merchant-consent"

const digits = (what: string, min: number, max: number) => z.string().regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${min} to ${max} digits (${what})`)

export const directPaymentMethodInput = z.discriminatedUnion("type", [
  z.object({ type: z.literal("saved_card"), saved_card_id: z.string().min(1).max(200) }).strict(),
  z.object({ type: z.literal("wallet-one"), token: z.string().min(1).max(20_000) }).strict(),
  z
    .object({
      type: z.literal("network-token"),
      token_number: digits("token number", 12, 19),
      expiration_month: z.union([z.string(), z.int()]),
      expiration_year: z.union([z.string(), z.int()]),
      cryptogram: z.string().min(1).optional(),
      eci: z.enum(ECI_VALUES).optional(),
      source: z.enum(["wallet-one", "wallet-two", "network-token"]).optional(),
    })
    .strict()
    // The gateway's rule (spec, network tokens), checked here: the plugin's client leaves the schema check to the gateway.
    .superRefine((method, ctx) => {
      const problem = eciProblem(method.cryptogram, method.eci)
      if (problem === "missing") ctx.addIssue({ code: "custom", path: ["eci"], message: "is required with a cryptogram (CRYPTOGRAM_3DS)" })
      if (problem === "unexpected") ctx.addIssue({ code: "custom", path: ["eci"], message: "must be left out without a cryptogram (PAN_ONLY)" })
    }),
  z
    .object({
      type: z.literal("card"),
      number: digits("card number", 12, 19),
      cvv: digits("CVV", 3, 4),
      expiration_month: z.union([z.string(), z.int()]),
      expiration_year: z.union([z.string(), z.int()]),
    })
    .strict(),
])
export type DirectPaymentMethodInput = z.infer<typeof directPaymentMethodInput>

export const initiateInput = z.object({
  session_id: z.string().min(1),
  payment_method: directPaymentMethodInput.optional(),
  browser_info: browserInfo.optional(),
  save_card: z.boolean().optional(),
  /** The shopper's consent to later charges by the shop, in the words the checkout showed (option savedCardConsent). */
  merchant_consent: merchantConsentInput.optional(),
  /** Test environment only: the sandbox's 3-D Secure simulator flow (a storefront cannot set gateway metadata). */
  simulated_flow: z.string().regex(/^[A-Z_]{1,64}$/, "must be a simulator flow name such as VERSIONING_FINGERPRINT_Y_CHALLENGE").optional(),
})
export type InitiateInput = z.infer<typeof initiateInput>

/** A zod failure as one sentence naming each field. */
export const describeIssues = (error: z.ZodError, prefix = "data") =>
  error.issues.map((i) => `${[prefix, ...i.path].join(".")} ${i.message}`).join("; ")
