/** Loads the gateway's embedded-fields.js once per URL and hands back window.PaymentComponent. */
export type PaymentComponentFactory = (options: { clientKey: string; sessionId: string; environment: string; locale?: string }) => Promise<any>

const loading: Record<string, Promise<PaymentComponentFactory>> = {}

export function loadScript(url: string): Promise<PaymentComponentFactory> {
  const w = window as any
  if (w.PaymentComponent) return Promise.resolve(w.PaymentComponent)
  return (loading[url] ??= new Promise((resolve, reject) => {
    const s = document.createElement("script")
    s.src = url
    s.async = true
    s.onload = () => (w.PaymentComponent ? resolve(w.PaymentComponent) : reject(new Error("embedded-fields.js did not define PaymentComponent")))
    s.onerror = () => {
      delete loading[url] // a later attempt may succeed
      reject(new Error(`Could not load ${url}`))
    }
    document.head.appendChild(s)
  }))
}
