/** PGS: how the widget reaches the Medusa store API from the browser (the starter's own public variables). */
export const pgsConnection = {
  baseUrl: process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL || "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY!,
  // The starter's pages are in English: so is the widget. Without it, a Swedish browser gets a Swedish widget on an
  // English page. A storefront in several languages passes the page's (en-US, bs-BA, ro-RO or sv-SE).
  locale: "en-US",
}
