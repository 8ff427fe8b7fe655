/** The logged-in customer's saved cards (our store route); a guest's widget does not ask. */
import { statusOf, type Api } from "./api.js"
import type { Translate } from "./i18n.js"

export type SavedCard = { id: string; brand: string | null; masked: string | null; last_4: string | null; exp_month: number | null; exp_year: number | null }

/** The cards, or null when nobody is logged in. */
export async function listSavedCards(api: Api): Promise<SavedCard[] | null> {
  if (!(await api.signedIn())) return null
  try {
    return (await api.fetch("/store/pgs/saved-cards")).saved_cards
  } catch (e) {
    if (statusOf(e) === 401) return null
    throw e
  }
}

export const deleteSavedCard = (api: Api, id: string) => api.fetch(`/store/pgs/saved-cards/${id}`, { method: "DELETE" })

export const savedCardText = (t: Translate, c: SavedCard) =>
  t("savedCard", {
    brand: c.brand ?? "",
    last4: c.last_4 ?? c.masked?.slice(-4) ?? "",
    exp: c.exp_month && c.exp_year ? `${String(c.exp_month).padStart(2, "0")}/${String(c.exp_year).slice(-2)}` : "",
  })

/** The server's word that this store asks consent to later charges by the shop (option savedCardConsent). */
export type ChargeConsent = { store_name: string | null }
/** The version of the consent words below, recorded with the card next to the words themselves. */
export const CONSENT_WORDING = "pgs-widget-1"

/** The save checkbox's label: with the consent asked, it says in words that the shop may charge the card later. */
export const saveLabel = (t: Translate, consent?: ChargeConsent | null) => (consent ? t("saveConsent", { store: consent.store_name ?? t("shop") }) : t("save"))
