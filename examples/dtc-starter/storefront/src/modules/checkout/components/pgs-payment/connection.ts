/** PGS: how the widget reaches the Medusa store API from the browser (the starter's own public variables). */
export const pgsConnection = {
  baseUrl: process.env.NEXT_PUBLIC_MEDUSA_BACKEND_URL || "http://localhost:9000",
  publishableKey: process.env.NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY!,
}
