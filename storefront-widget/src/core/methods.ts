/** The methods to offer: the PGS providers enabled in the cart's region, the customer's saved cards, a wallet. */
import type { Api } from "./api"
import type { Cart } from "./cart"
import type { TextKey, Translate } from "./i18n"
import { listSavedCards, type SavedCard } from "./saved-cards"

export type Method =
  | { kind: "card"; key: "card" }
  | { kind: "saved"; key: string; card: SavedCard }
  | { kind: "wallet"; key: "wallet" }
  | { kind: "redirect"; key: string; id: string }

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

export async function listMethods(
  api: Api,
  cart: Cart,
  o: { providers?: string[]; wallet?: unknown; methodData?: Record<string, unknown> },
): Promise<[Method[], SavedCard[] | null]> {
  const [providers, cards] = await Promise.all([
    api.fetch("/store/payment-providers", { query: { region_id: cart.region_id ?? "", limit: "100" } }).then((r) => (r.payment_providers as { id: string }[]).map((p) => p.id)),
    listSavedCards(api),
  ])
  // Cards first; the instant method takes PLN only; a voucher needs the store to say which (methodData).
  const ids = (o.providers ?? [...providers].sort((a, b) => +(b === "pp_pgs_pgs") - +(a === "pp_pgs_pgs"))).filter(
    (id) =>
      id.startsWith("pp_pgs") &&
      providers.includes(id) &&
      (!id.includes("-provider-instant_") || cart.currency_code === "pln") &&
      (!id.includes("-voucher-") || o.methodData?.[id]),
  )
  const methods: Method[] = []
  for (const id of ids) {
    if (id !== "pp_pgs_pgs") methods.push({ kind: "redirect", key: id, id })
    else {
      for (const card of cards ?? []) methods.push({ kind: "saved", key: `saved:${card.id}`, card })
      methods.push({ kind: "card", key: "card" })
      if (o.wallet) methods.push({ kind: "wallet", key: "wallet" })
    }
  }
  return [methods, cards]
}
