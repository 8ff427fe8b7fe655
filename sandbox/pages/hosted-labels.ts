/** The hosted payment page's words in its four languages (spec: en-US, bs-BA, ro-RO, sv-SE). */
import type { Language } from "../schemas"

export type HostedLanguage = Language

export type HostedLabels = {
  title: string
  amount: string
  card_number: string
  expiry_month: string
  expiry_year: string
  cvv: string
  instalments: string
  no_instalments: string
  pay: string
  cancel: string
  processing: string
  invalid_card_number: string
  invalid_expiry: string
  invalid_cvv: string
  invalid_instalments: string
  not_available: string
}

export const HOSTED_LABELS: Record<HostedLanguage, HostedLabels> = {
  "en-US": {
    title: "Payment",
    amount: "Amount",
    card_number: "Card number",
    expiry_month: "Expiry month",
    expiry_year: "Expiry year",
    cvv: "Security code (CVV)",
    instalments: "Instalments",
    no_instalments: "No instalments",
    pay: "Pay",
    cancel: "Cancel",
    processing: "Your payment is being processed.",
    invalid_card_number: "Enter a valid card number.",
    invalid_expiry: "Enter a valid expiry date.",
    invalid_cvv: "Enter a valid security code.",
    invalid_instalments: "Choose a valid number of instalments.",
    not_available: "This payment can no longer be paid.",
  },
  "bs-BA": {
    title: "Plaćanje",
    amount: "Iznos",
    card_number: "Broj kartice",
    expiry_month: "Mjesec isteka",
    expiry_year: "Godina isteka",
    cvv: "Sigurnosni kod (CVV)",
    instalments: "Rate",
    no_instalments: "Bez rata",
    pay: "Plati",
    cancel: "Odustani",
    processing: "Vaše plaćanje se obrađuje.",
    invalid_card_number: "Unesite ispravan broj kartice.",
    invalid_expiry: "Unesite ispravan datum isteka.",
    invalid_cvv: "Unesite ispravan sigurnosni kod.",
    invalid_instalments: "Odaberite ispravan broj rata.",
    not_available: "Ovo plaćanje više nije moguće.",
  },
  "ro-RO": {
    title: "Plată",
    amount: "Sumă",
    card_number: "Numărul cardului",
    expiry_month: "Luna expirării",
    expiry_year: "Anul expirării",
    cvv: "Cod de securitate (CVV)",
    instalments: "Rate",
    no_instalments: "Fără rate",
    pay: "Plătește",
    cancel: "Anulează",
    processing: "Plata dumneavoastră este în curs de procesare.",
    invalid_card_number: "Introduceți un număr de card valid.",
    invalid_expiry: "Introduceți o dată de expirare validă.",
    invalid_cvv: "Introduceți un cod de securitate valid.",
    invalid_instalments: "Alegeți un număr valid de rate.",
    not_available: "Această plată nu mai poate fi efectuată.",
  },
  "sv-SE": {
    title: "Betalning",
    amount: "Belopp",
    card_number: "Kortnummer",
    expiry_month: "Utgångsmånad",
    expiry_year: "Utgångsår",
    cvv: "Säkerhetskod (CVV)",
    instalments: "Delbetalningar",
    no_instalments: "Ingen delbetalning",
    pay: "Betala",
    cancel: "Avbryt",
    processing: "Din betalning behandlas.",
    invalid_card_number: "Ange ett giltigt kortnummer.",
    invalid_expiry: "Ange ett giltigt utgångsdatum.",
    invalid_cvv: "Ange en giltig säkerhetskod.",
    invalid_instalments: "Välj ett giltigt antal delbetalningar.",
    not_available: "Den här betalningen kan inte längre betalas.",
  },
}

export const labelsFor = (language: string): HostedLabels => HOSTED_LABELS[language as HostedLanguage] ?? HOSTED_LABELS["en-US"]
