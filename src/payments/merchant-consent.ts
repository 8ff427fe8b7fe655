/**
 * The shopper's consent to later charges by the shop (option savedCardConsent), as the checkout asked it: which
 * wording (a version the storefront names), in which language, and the words themselves. Kept with the session,
 * then with the saved card, so the shop can show what the shopper agreed to (a dispute, a question).
 */
import { z } from "zod"

// Control characters would make the recorded words unreadable (and NUL is refused by PostgreSQL's jsonb).
const readable = (s: string) => !/[\u0000-\u001f\u007f]/.test(s)

/** What a storefront sends as `data.merchant_consent` next to `save_card: true`. */
export const merchantConsentInput = z.strictObject({
  wording: z.string().regex(/^[\w.-]{1,40}$/, "must name the wording's version in 1 to 40 letters, digits, '.', '_' or '-' (e.g. pgs-widget-1)"),
  locale: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/, "must be the language tag the shopper read it in (e.g. en-US)"),
  text: z.string().min(1, "must be the words the shopper agreed to").max(500, "must be at most 500 characters").refine(readable, "must not contain control characters"),
})
export type MerchantConsentInput = z.infer<typeof merchantConsentInput>

/** As recorded: what was asked, and when the checkout recorded the answer (ISO time). */
export const merchantConsent = z.object({ at: z.string(), wording: z.string(), locale: z.string(), text: z.string() })
export type MerchantConsent = z.infer<typeof merchantConsent>
