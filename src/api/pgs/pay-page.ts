/**
 * The small page a pay link shows when it does not send the shopper to the gateway: paid, not paid, failed,
 * expired, closed … in the widget's four locales (chosen by ?lang=, else Accept-Language, else English). Plain
 * HTML with no script; "processing" reloads itself until the webhook decided; "canceled" has the one button that
 * changes anything (a POST: a GET, which a link preview or a prefetch makes, changes nothing).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { setPageHeaders } from "../page-headers"
import { PGS_MODULE } from "../../modules/pgs"
import { parseOptions } from "../../modules/pgs/options"
import type PgsModuleService from "../../modules/pgs/service"

export type PageState = "paid" | "processing" | "canceled" | "notPaid" | "failed" | "expired" | "closed" | "replaced" | "settled" | "unknown" | "unavailable"

const LOCALES = ["en-US", "bs-BA", "ro-RO", "sv-SE"] as const
type Locale = (typeof LOCALES)[number]

type Texts = Record<PageState, [title: string, body: string]> & { heading: string; lang: string; startOver: string; askTheShop: string }

const TEXTS: Record<Locale, Texts> = {
  "en-US": {
    lang: "en-US",
    heading: "Payment",
    startOver: "Start over",
    askTheShop: "Questions? Contact the shop:",
    paid: ["Paid", "Thank you: this payment has been received. You can close this page."],
    canceled: ["Not paid", "You canceled the payment and nothing was charged. To pay, press Start over, then open the payment link again."],
    processing: ["Confirming your payment…", "Your bank has answered and we are waiting for the confirmation. This page updates by itself."],
    notPaid: ["Not paid", "The payment was canceled and nothing was charged. Open the payment link again to pay."],
    failed: ["Payment failed", "Your payment was declined or could not be completed, and nothing was charged. To try another card, open the payment link from your email or message again."],
    expired: ["Link expired", "This payment link has expired. Ask the shop for a new one."],
    closed: ["Nothing to pay", "This order can no longer be paid through this link. Nothing was charged."],
    replaced: ["This page was replaced", "A newer payment page was made for this order. Open your payment link again to pay."],
    settled: ["Nothing to pay", "This order no longer needs this payment. Anything your bank approved on this page is given back to you."],
    unknown: ["Link not found", "This payment link is not valid. Check that you copied all of it."],
    unavailable: ["Please try again later", "The payment page could not be opened just now. Nothing was charged. Please try again in a few minutes."],
  },
  "bs-BA": {
    lang: "bs-BA",
    heading: "Plaćanje",
    startOver: "Počni ispočetka",
    askTheShop: "Pitanja? Obratite se prodavnici:",
    paid: ["Plaćeno", "Hvala: ovo plaćanje je primljeno. Možete zatvoriti ovu stranicu."],
    canceled: ["Nije plaćeno", "Otkazali ste plaćanje i ništa nije naplaćeno. Da biste platili, pritisnite Počni ispočetka, a zatim ponovo otvorite link za plaćanje."],
    processing: ["Potvrđujemo vaše plaćanje…", "Vaša banka je odgovorila i čekamo potvrdu. Ova stranica se sama osvježava."],
    notPaid: ["Nije plaćeno", "Plaćanje je otkazano i ništa nije naplaćeno. Ponovo otvorite link za plaćanje da biste platili."],
    failed: ["Plaćanje nije uspjelo", "Vaše plaćanje je odbijeno ili nije završeno i ništa nije naplaćeno. Da biste pokušali drugom karticom, ponovo otvorite link za plaćanje iz e-pošte ili poruke."],
    expired: ["Link je istekao", "Ovaj link za plaćanje je istekao. Zatražite novi od prodavnice."],
    closed: ["Nema ništa za platiti", "Ova narudžba se više ne može platiti preko ovog linka. Ništa nije naplaćeno."],
    replaced: ["Stranica je zamijenjena", "Za ovu narudžbu napravljena je nova stranica za plaćanje. Ponovo otvorite link za plaćanje da biste platili."],
    settled: ["Nema ništa za platiti", "Ovoj narudžbi više nije potrebno ovo plaćanje. Sve što je vaša banka odobrila na ovoj stranici bit će vam vraćeno."],
    unknown: ["Link nije pronađen", "Ovaj link za plaćanje nije ispravan. Provjerite da ste ga kopirali cijelog."],
    unavailable: ["Pokušajte ponovo kasnije", "Stranica za plaćanje se trenutno ne može otvoriti. Ništa nije naplaćeno. Pokušajte ponovo za nekoliko minuta."],
  },
  "ro-RO": {
    lang: "ro-RO",
    heading: "Plată",
    startOver: "Începeți din nou",
    askTheShop: "Întrebări? Contactați magazinul:",
    paid: ["Plătit", "Vă mulțumim: plata a fost primită. Puteți închide această pagină."],
    canceled: ["Neplătit", "Ați anulat plata și nu s-a încasat nimic. Pentru a plăti, apăsați Începeți din nou, apoi deschideți din nou linkul de plată."],
    processing: ["Confirmăm plata…", "Banca dvs. a răspuns și așteptăm confirmarea. Pagina se actualizează singură."],
    notPaid: ["Neplătit", "Plata a fost anulată și nu s-a încasat nimic. Deschideți din nou linkul de plată pentru a plăti."],
    failed: ["Plata nu a reușit", "Plata a fost refuzată sau nu s-a putut finaliza și nu s-a încasat nimic. Pentru a încerca alt card, deschideți din nou linkul de plată din e-mail sau mesaj."],
    expired: ["Link expirat", "Acest link de plată a expirat. Cereți magazinului unul nou."],
    closed: ["Nimic de plătit", "Această comandă nu mai poate fi plătită prin acest link. Nu s-a încasat nimic."],
    replaced: ["Pagina a fost înlocuită", "Pentru această comandă a fost creată o pagină de plată nouă. Deschideți din nou linkul de plată pentru a plăti."],
    settled: ["Nimic de plătit", "Această comandă nu mai are nevoie de această plată. Orice sumă aprobată de banca dvs. pe această pagină vă este returnată."],
    unknown: ["Link negăsit", "Acest link de plată nu este valid. Verificați că l-ați copiat în întregime."],
    unavailable: ["Încercați din nou mai târziu", "Pagina de plată nu a putut fi deschisă acum. Nu s-a încasat nimic. Încercați din nou în câteva minute."],
  },
  "sv-SE": {
    lang: "sv-SE",
    heading: "Betalning",
    startOver: "Börja om",
    askTheShop: "Frågor? Kontakta butiken:",
    paid: ["Betald", "Tack: betalningen har tagits emot. Du kan stänga den här sidan."],
    canceled: ["Inte betald", "Du avbröt betalningen och inget drogs. Tryck på Börja om för att betala och öppna sedan betalningslänken igen."],
    processing: ["Betalningen bekräftas…", "Din bank har svarat och vi väntar på bekräftelsen. Sidan uppdateras av sig själv."],
    notPaid: ["Inte betald", "Betalningen avbröts och inget drogs. Öppna betalningslänken igen för att betala."],
    failed: ["Betalningen misslyckades", "Din betalning nekades eller kunde inte slutföras, och inget drogs. Öppna betalningslänken i ditt e-postmeddelande eller meddelande igen för att försöka med ett annat kort."],
    expired: ["Länken har gått ut", "Den här betalningslänken har gått ut. Be butiken om en ny."],
    closed: ["Inget att betala", "Den här beställningen kan inte längre betalas via länken. Inget drogs."],
    replaced: ["Sidan har ersatts", "En ny betalningssida har skapats för den här beställningen. Öppna betalningslänken igen för att betala."],
    settled: ["Inget att betala", "Den här beställningen behöver inte längre den här betalningen. Det som din bank godkände på den här sidan betalas tillbaka till dig."],
    unknown: ["Länken hittades inte", "Den här betalningslänken är inte giltig. Kontrollera att du kopierade hela länken."],
    unavailable: ["Försök igen senare", "Betalningssidan kunde inte öppnas just nu. Inget drogs. Försök igen om några minuter."],
  },
}

/** ?lang= (exact tag or language), else the first Accept-Language entry we have, else English. */
export function pageLocale(req: MedusaRequest): Locale {
  const wanted = [typeof req.query.lang === "string" ? req.query.lang : "", ...String(req.headers["accept-language"] ?? "").split(",").map((part) => part.split(";")[0].trim())]
  for (const tag of wanted) {
    if (!tag) continue
    const exact = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase())
    if (exact) return exact
    const language = LOCALES.find((l) => l.slice(0, 2) === tag.slice(0, 2).toLowerCase())
    if (language) return language
  }
  return "en-US"
}

const HTTP_STATUS: Record<PageState, number> = {
  paid: 200,
  processing: 200,
  canceled: 200,
  notPaid: 200,
  failed: 200,
  expired: 410,
  closed: 410,
  replaced: 409,
  settled: 410,
  unknown: 404,
  // The gateway or the database could not be reached: the shopper is told to come back, never shown a 5xx.
  unavailable: 200,
}

const MARK: Record<PageState, string> = { paid: "✓", processing: "…", canceled: "–", notPaid: "–", failed: "✕", expired: "⌛", closed: "–", replaced: "↻", settled: "–", unknown: "?", unavailable: "!" }
const TONE: Record<PageState, string> = { paid: "#157f3b", processing: "#8a6100", canceled: "#475467", failed: "#b42318", notPaid: "#475467", expired: "#475467", closed: "#475467", replaced: "#475467", settled: "#475467", unknown: "#475467", unavailable: "#8a6100" }

/** The POST the "canceled" page's button makes; the session id is checked (payses_ + a ULID) before it gets here. */
export type StartOver = { action: string }

/**
 * `shop`: the storefront (PGS_STORE_URL), offered on "Payment failed" as whom to ask. Never the link itself: the page
 * is the return address the gateway was given, and whoever holds it must not get a page that takes a payment.
 */
export function renderPayPage(state: PageState, locale: Locale, startOver?: StartOver, shop?: string | null): string {
  const t = TEXTS[locale]
  const [title, body] = t[state]
  const button = state === "canceled" && startOver ? `<form method="post" action="${escapeAttribute(startOver.action)}"><button type="submit">${t.startOver}</button></form>` : ""
  const ask = state === "failed" && shop ? `<p class="shop">${t.askTheShop} <a href="${escapeAttribute(shop)}">${escapeAttribute(new URL(shop).host)}</a></p>` : ""
  const refresh = state === "processing" ? '<meta http-equiv="refresh" content="3">' : ""
  return `<!doctype html>
<html lang="${t.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${refresh}
<meta name="robots" content="noindex"><title>${title} · ${t.heading}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f5f7;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2939}
main{box-sizing:border-box;width:min(440px,calc(100vw - 32px));background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(16,24,40,.12);padding:32px 28px;text-align:center}
.mark{width:56px;height:56px;margin:0 auto 16px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-size:28px;color:#fff;background:${TONE[state]}}
.heading{margin:0 0 4px;font-size:13px;letter-spacing:.06em;text-transform:uppercase;color:#667085}
h1{margin:0 0 12px;font-size:24px;line-height:1.25}
p{margin:0;color:#475467}
form,.shop{margin:20px 0 0}
button{font:inherit;padding:10px 20px;border:0;border-radius:8px;background:#1d2939;color:#fff;cursor:pointer}
</style></head>
<body><main data-state="${state}"><div class="mark" aria-hidden="true">${MARK[state]}</div><p class="heading">${t.heading}</p><h1>${title}</h1><p>${body}</p>${ask}${button}</main></body></html>`
}

const escapeAttribute = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function sendPayPage(req: MedusaRequest, res: MedusaResponse, state: PageState, startOver?: StartOver): void {
  res.status(HTTP_STATUS[state])
  setPageHeaders(res)
  res.setHeader("x-robots-tag", "noindex")
  res.send(renderPayPage(state, pageLocale(req), startOver, state === "failed" ? shopUrl(req) : null))
}

/** The storefront's URL from the plugin's options; none when they cannot be read (the page still says what to do). */
function shopUrl(req: MedusaRequest): string | null {
  try {
    return parseOptions(req.scope.resolve<PgsModuleService>(PGS_MODULE).rawOptions).storeUrl
  } catch {
    return null
  }
}
