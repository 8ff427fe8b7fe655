/**
 * The widget's own texts in the four locales of the embedded fields. `{x}` placeholders are filled by `t`.
 * Decline texts are chosen from the gateway's code, never from its English message, so shoppers read their language.
 */
export const LOCALES = ["en-US", "bs-BA", "ro-RO", "sv-SE"] as const
export type Locale = (typeof LOCALES)[number]

const KEYS = [
  "methods", "card", "savedCard", "del", "deleted", "save", "pay", "processing", "checkFields", "declined",
  "insufficient", "canceled", "expired", "gone", "error", "retrying", "busy", "verifying", "challenge", "redirecting",
  "paid", "pending", "code", "codeInvalid", "confirming", "loading", "openBanking", "upi", "wallets", "bankTransfer",
  "qrCode", "instant", "voucher", "bankRedirect", "hosted", "walletRedirect", "back", "bankPage",
  "payAmount", "cancel", "voucherPick", "unavailable", "placedPending", "saveConsent", "shop",
] as const
export type TextKey = (typeof KEYS)[number]

// "|"-separated in KEYS order. English is built in; the other locales load on first use, so a shopper downloads
// only their own language. bench/size.mjs checks that every pack has one text per key.
const EN =
  "Payment method|Card|{brand} ending in {last4}, expires {exp}|Delete {card}|Card deleted|Save this card for next time|Pay|Processing payment…|Please check the card details.|Your payment was declined. Please try another payment method.|Your payment was declined: insufficient funds. Please use another card.|The payment was canceled.|The payment session expired. Please start again.|This saved card can no longer be used. Please enter your card again.|Something went wrong. Please try again.|Connection problem, retrying…|Your order is being completed…|Checking your card with your bank…|Confirm the payment with your bank|Taking you to complete the payment…|Payment approved. Thank you for your order!|Waiting for confirmation of your payment…|6-digit code from your banking app|Enter the 6 digits of the code.|Confirming your payment…|Loading payment methods…|Online banking|UPI|Other wallets (chosen on the next page)|Bank transfer|QR code|Instant payment with a code|Voucher|Bank payment|Card on a secure payment page|Wallet on this device|Back to checkout|Online banking on your bank's page|Pay {amount}|Cancel|Choose your voucher|Payments with this method are unavailable right now. Please try another method or again in a few minutes.|Thank you! Your order #{id} is placed. Your bank is still confirming the payment; we will let you know as soon as it is confirmed.|Save this card and allow {store} to charge it for amounts I still owe on my orders|the shop"

const PACKS: Record<Exclude<Locale, "en-US">, () => Promise<{ default: string }>> = {
  "bs-BA": () => import("./locales/bs-BA"),
  "ro-RO": () => import("./locales/ro-RO"),
  "sv-SE": () => import("./locales/sv-SE"),
}

/** Exact tag, else the language part ("sv" → sv-SE), else English (as the embedded fields do). */
export function resolveLocale(tag?: string | null): Locale {
  const lower = (tag ?? "").toLowerCase()
  return LOCALES.find((l) => l.toLowerCase() === lower) ?? LOCALES.find((l) => l.slice(0, 2) === lower.slice(0, 2)) ?? "en-US"
}

export type Translate = (key: TextKey, vars?: Record<string, string>) => string

const translate = (pack: string): Translate => {
  const parts = pack.split("|")
  return (key, vars = {}) => parts[KEYS.indexOf(key)].replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? "")
}

export const english: Translate = translate(EN)

/** The texts of a locale (English at once, the others after loading their pack). */
export const translator = (locale: Locale): Promise<Translate> =>
  locale === "en-US" ? Promise.resolve(english) : PACKS[locale]().then((m) => translate(m.default))

/** A gateway code (processing code or TRX_STATUS_* name) or a Medusa session status → the shopper's text. */
export function declineKey(code?: string | null, status?: string | null): TextKey {
  const c = code ?? ""
  if (c === "1004" || c.includes("INSUFFICIENT")) return "insufficient"
  if (c === "1003" || status === "canceled" || status === "CANCELED") return "canceled"
  if (c === "1005" || status === "SESSION_EXPIRED") return "expired"
  if (c.includes("INACTIVE")) return "gone"
  return "declined"
}
