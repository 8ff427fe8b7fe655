/**
 * The gateway's card fields (embedded-fields.js) in the widget: mounted into a host inside the shadow root, themed
 * through the spec's --lib-* variables. Card data stays inside the gateway's iframe. Resolves once the fields are
 * rendered (the component's mount), so the shopper can type the card number: only then is Pay offered.
 */
import type { SessionData } from "./cart.js"
import type { Event } from "./flow.js"
import { loadScript, type CardComponent, type PaymentCore } from "./script.js"

export type Submitted = Extract<Event, { type: "submitted" }>
export type CardFields = { pay(customer: Record<string, string>): Promise<Submitted>; validate(): boolean; changeLocale(l: string): void; destroy(): void }

/** Asks for the gateway's script as soon as its address is known (a failure is told when the fields mount). */
export const preloadCardFields = (url?: string) => void (url && loadScript(url).catch(() => {}))

export async function mountCardFields(
  host: HTMLElement,
  d: SessionData,
  locale: string,
  vars: Record<string, string>,
  customerConfig: Record<string, boolean> | undefined,
  onComplete: () => void,
): Promise<CardFields> {
  for (const [k, v] of Object.entries(vars)) host.style.setProperty(k, v)
  const PaymentComponent = await loadScript(d.script_url!)
  const core: PaymentCore = await PaymentComponent({ clientKey: d.client_key!, sessionId: d.gateway_session_id!, environment: d.environment!, locale })
  const c: CardComponent = core.create("card", {
    componentConfig: { customerConfig: { hasHolderName: true, holderNameRequired: true, ...customerConfig } },
    // The frame shows its own field errors; the widget's one message says what to do. A change that leaves the form
    // complete tells the checkout the shopper may press Pay next (a state that does not say so reads at Pay).
    componentListeners: { onError: () => {}, onChange: (s?: { isValid?: boolean }) => s?.isValid && onComplete() },
  })
  await c.mount(host)
  // The placeholder stays until the gateway has sized its frame to its fields: the frame reports its empty page's
  // few pixels before the fields' height, and a row collapsing to those in between jumps the page twice. No card
  // form is shorter than one input (48 px). A gateway without a frame ends the placeholder at once.
  const frame = host.querySelector("iframe")
  const sized = new ResizeObserver(() => {
    if (frame && frame.offsetHeight < 48) return
    host.removeAttribute("aria-busy")
    sized.disconnect()
  })
  sized.observe(frame ?? host)
  return {
    // Whatever the answer, the server decides what it means once told of the transaction (flow.ts).
    pay: (customer) =>
      new Promise((resolve) =>
        c.submitPayment({
          customer,
          callback: (r, e) =>
            resolve({ type: "submitted", transaction_id: r?.transaction_id, busy: e?.code === "IN_PROGRESS", gone: e?.status === 404 || e?.code === "SESSION_EXPIRED" }),
        }),
      ),
    validate: () => c.validate(),
    changeLocale: (l) => c.changeLocale(l),
    destroy() {
      sized.disconnect()
      c.unmount()
      core.destroy()
    },
  }
}
