/**
 * The payment-collection entry's own texts (what the cart checkout does not say), in the widget's four locales.
 * Kept here, not in the core's i18n packs, so the cart entry's bundle does not carry them.
 */
import type { Locale } from "../core/i18n.js"

export type CollectionText = "owed" | "order" | "settled" | "gone" | "unknown" | "pending" | "received"

const TEXTS: Record<Locale, Record<CollectionText, string>> = {
  "en-US": {
    owed: "Amount due",
    order: "Order #{order}",
    settled: "This payment has been made. Nothing more is owed.",
    gone: "This payment request was replaced or canceled. Please ask the shop for a new link.",
    unknown: "This payment request was not found.",
    pending: "Waiting for confirmation of your payment…",
    received: "Payment received. Thank you!",
  },
  "bs-BA": {
    owed: "Iznos za plaćanje",
    order: "Narudžba #{order}",
    settled: "Ovo plaćanje je izvršeno. Ništa više se ne duguje.",
    gone: "Ovaj zahtjev za plaćanje je zamijenjen ili otkazan. Zatražite novi link od trgovine.",
    unknown: "Zahtjev za plaćanje nije pronađen.",
    pending: "Čeka se potvrda vašeg plaćanja…",
    received: "Plaćanje je primljeno. Hvala!",
  },
  "ro-RO": {
    owed: "Suma de plată",
    order: "Comanda #{order}",
    settled: "Această plată a fost efectuată. Nu mai aveți nimic de plătit.",
    gone: "Această cerere de plată a fost înlocuită sau anulată. Cereți magazinului un link nou.",
    unknown: "Cererea de plată nu a fost găsită.",
    pending: "Se așteaptă confirmarea plății…",
    received: "Plata a fost primită. Vă mulțumim!",
  },
  "sv-SE": {
    owed: "Att betala",
    order: "Order #{order}",
    settled: "Betalningen är gjord. Inget mer återstår att betala.",
    gone: "Betalningsbegäran har ersatts eller avbrutits. Be butiken om en ny länk.",
    unknown: "Betalningsbegäran hittades inte.",
    pending: "Väntar på bekräftelse av din betalning…",
    received: "Betalningen är mottagen. Tack!",
  },
}

export const collectionText = (locale: Locale, key: CollectionText, vars: Record<string, string> = {}) =>
  TEXTS[locale][key].replace(/\{(\w+)\}/g, (_, k) => vars[k] ?? "")
