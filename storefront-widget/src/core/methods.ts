/** The methods to offer: those the server says can serve the cart, the customer's saved cards, a wallet. */
import type { Api } from "./api.js"
import type { Cart } from "./cart.js"
import { preloadCardFields } from "./card-fields.js"
import type { TextKey, Translate } from "./i18n.js"
import type { ChargeConsent, SavedCard } from "./saved-cards.js"

/** `names`: the terminal admin's name per locale, from the server (saved cards and the wallet keep ours). */
type Names = Record<string, string>
export type Method =
  | { kind: "card"; key: "card"; names?: Names }
  | { kind: "saved"; key: string; card: SavedCard }
  | { kind: "wallet"; key: "wallet"; consent?: ChargeConsent }
  | { kind: "redirect"; key: string; id: string; family: string; vouchers?: string[]; names?: Names }

const LABELS: Record<string, TextKey> = {
  "open-banking": "openBanking",
  "openbanking-redirect": "bankPage",
  upi: "upi",
  wallets: "wallets",
  "bank-transfer": "bankTransfer",
  "qr-code": "qrCode",
  "provider-instant": "instant",
  "voucher-redirect": "voucher",
  "bank-scheme-redirect": "bankRedirect",
  hosted: "hosted",
}

/** Brand names, the same in every language. */
const NAMES: Record<string, string> = { "wallet-one-redirect": "Wallet One", "wallet-two-redirect": "Wallet Two" }

/** The method families beyond cards (identifiers `pgs-{family}`): the hosted payment page and the redirect methods. */
export const PGS_FAMILIES: readonly string[] = [...Object.keys(LABELS), ...Object.keys(NAMES)]

/** pp_pgs-upi_pgs → "upi" → its name or text (unknown methods read as a bank payment; `labels` can name them). */
export function providerLabel(id: string, t: Translate): string {
  const family = id.replace(/^pp_pgs-?/, "").replace(/_[^_]*$/, "")
  return NAMES[family] ?? t(LABELS[family] ?? "bankRedirect")
}

/** A served method as GET /store/pgs/payment-methods answers (identifier `pgs` for cards, `pgs-{family}`). */
type Served = { provider_id: string; identifier: string; voucher_codes?: string[]; names?: Names; saved_card_consent?: ChargeConsent; script_url?: string }

/**
 * The methods that can serve this cart, as the server decides (region, currency rules, the terminal's methods),
 * narrowed to `providers` when given; a logged-in customer's saved cards first (on their own cart), then the card, then the rest. The
 * gateway's card-fields script is asked for as soon as its address is known, here: with the card session, not after.
 * Third: the cart as the Pay button shows it (its total from the server), so no cart is read before the card's session.
 */
export async function listMethods(
  api: Api,
  cartId: string,
  o: { providers?: string[]; wallet?: unknown; methodData?: Record<string, Record<string, unknown>> },
): Promise<[Method[], SavedCard[] | null, Cart]> {
  // The customer's saved cards come with them, only on the customer's own cart: on another (made before login) a
  // saved card cannot be used. null: none to offer (nor a card to save).
  const { payment_methods: served, saved_cards: cards = null, total, currency_code }: { payment_methods: Served[]; saved_cards?: SavedCard[] | null; total?: number; currency_code?: string } =
    await api.fetch("/store/pgs/payment-methods", { query: { cart_id: cartId } })
  const chosen = o.providers ? o.providers.flatMap((id) => served.filter((m) => m.provider_id === id)) : served
  const methods: Method[] = []
  for (const m of chosen) {
    if (m.identifier === "pgs") {
      preloadCardFields(m.script_url)
      methods.unshift(...(cards ?? []).map((card): Method => ({ kind: "saved", key: `saved:${card.id}`, card })))
      methods.push({ kind: "card", key: "card", names: m.names })
      if (o.wallet) methods.push({ kind: "wallet", key: "wallet", consent: m.saved_card_consent })
      continue
    }
    // A voucher the store already named needs no picker.
    const vouchers = o.methodData?.[m.provider_id]?.voucher_code ? undefined : m.voucher_codes
    methods.push({ kind: "redirect", key: m.provider_id, id: m.provider_id, family: m.identifier.slice(4), vouchers, names: m.names })
  }
  return [methods, cards, { id: cartId, total, currency_code }]
}
