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
  "payAmount", "cancel", "voucherPick", "unavailable", "placedPending", "saveConsent", "shop", "many",
] as const
export type TextKey = (typeof KEYS)[number]

// "|"-separated in KEYS order. Every locale is a pack loaded on first use, so a shopper downloads only their own
// language; English's first-paint texts (the method list, Pay, "Loading…") are also built in, so English paints at
// once while its pack (messages, steps) loads. bench/size.mjs checks that every pack has one text per key and that
// the built-in texts are the pack's.
const EN =
  "Payment method|Card|{brand} ending in {last4}, expires {exp}|Delete {card}|||Pay|||||||||||||||||||Loading payment methods…|Online banking|UPI|Other wallets (chosen on the next page)|Bank transfer|QR code|Instant payment with a code|Voucher|Bank payment|Card on a secure payment page|Wallet on this device||Online banking on your bank's page|Pay {amount}|||||||"

const PACKS: Record<Locale, () => Promise<{ default: string }>> = {
  "en-US": () => import("./locales/en-US.js"),
  "bs-BA": () => import("./locales/bs-BA.js"),
  "ro-RO": () => import("./locales/ro-RO.js"),
  "sv-SE": () => import("./locales/sv-SE.js"),
}

/** Exact tag, else the language part ("sv" → sv-SE), else English (as the embedded fields do). */
export function resolveLocale(tag?: string | null): Locale {
  const lower = (tag ?? "").toLowerCase()
  return LOCALES.find((l) => l.toLowerCase() === lower) ?? LOCALES.find((l) => l.slice(0, 2) === lower.slice(0, 2)) ?? "en-US"
}

/** `vars`: the values of the text's `{x}` placeholders, by name (a note passes itself: api.ts refusalOf). */
export type Translate = (key: TextKey, vars?: object) => string

const translate = (pack: string): Translate => {
  const parts = pack.split("|")
  return (key, vars = {}) => parts[KEYS.indexOf(key)].replace(/\{(\w+)\}/g, (_, k) => (vars as Record<string, string>)[k] ?? "")
}

/** English's first-paint texts (the others read "" until English's pack has loaded: see loadTexts). */
export const english: Translate = translate(EN)

/** Every text of a locale, once its pack has loaded. */
export const translator = (locale: Locale): Promise<Translate> => PACKS[locale]().then((m) => translate(m.default))

/**
 * Hands `use` the texts of `locale` as they come: English's first-paint texts at once and every text once its pack
 * has loaded; another language's once its pack has loaded (English's if it cannot). Resolves when the widget can
 * paint; never rejects.
 */
export function loadTexts(locale: Locale, use: (t: Translate) => void): Promise<void> {
  const all = translator(locale).then(use)
  // A language's pack that fails to load: English, once (never a rejection every later await would see again).
  if (locale !== "en-US") return all.catch(() => loadTexts("en-US", use))
  use(english)
  all.catch(() => {}) // its messages stay empty: a network too broken to load them fails the payment calls too
  return Promise.resolve()
}

/** A gateway code (processing code or TRX_STATUS_* name) or a Medusa session status → the shopper's text. */
export function declineKey(code?: string | null, status?: string | null): TextKey {
  const c = code ?? ""
  // The gateway refuses the store's terminal (2013–2017), not the shopper's payment.
  if (c === "pgs_gateway_unavailable" || /^201[3-7]$/.test(c)) return "unavailable"
  if (c === "1004" || c.includes("INSUFFICIENT")) return "insufficient"
  if (c === "1003" || status === "canceled" || status === "CANCELED") return "canceled"
  if (c === "1005" || status === "SESSION_EXPIRED") return "expired"
  if (c.includes("INACTIVE")) return "gone"
  return "declined"
}
