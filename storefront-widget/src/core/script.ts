/** Loads the gateway's embedded-fields.js once per URL and hands back window.PaymentComponent (typed per the spec). */
export type CardResponse = { approved?: boolean; status?: string; transaction_id?: string | null }
export type CardComponent = {
  mount(host: Element): unknown
  unmount(): void
  validate(): boolean
  changeLocale(locale: string): void
  submitPayment(o: { customer: Record<string, string>; callback(response: CardResponse | null, error: { code?: string; status?: number } | null): void }): void
}
export type PaymentCore = { create(type: "card", config: Record<string, unknown>): CardComponent; destroy(): void }
export type PaymentComponentFactory = (options: { clientKey: string; sessionId: string; environment: string; locale?: string }) => Promise<PaymentCore>

const loading: Record<string, Promise<PaymentComponentFactory>> = {}
const global = () => (window as unknown as { PaymentComponent?: PaymentComponentFactory }).PaymentComponent

export function loadScript(url: string): Promise<PaymentComponentFactory> {
  const ready = global()
  if (ready) return Promise.resolve(ready)
  return (loading[url] ??= new Promise((resolve, reject) => {
    const s = document.createElement("script")
    s.src = url
    s.async = true
    const failed = () => {
      delete loading[url] // a later attempt may succeed
      reject(new Error(`Could not load PaymentComponent from ${url}`))
    }
    s.onload = () => {
      const f = global()
      f ? resolve(f) : failed()
    }
    s.onerror = failed
    document.head.appendChild(s)
  }))
}
