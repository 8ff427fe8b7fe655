/**
 * The browser's part of a Direct API next step (session data `next_action`), per the spec's client-side steps:
 * fingerprint (hidden iframe posting threeDSMethodData, then the fixed 5 s wait or the method page's completion),
 * challenge (iframe posting creq; only the ACS origin's CHALLENGE_RESPONSE is listened to), redirect, form_submit.
 */
import type { Api, Connection } from "./api.js"
import { sessionRoute } from "./cart.js"
import { addStyles, h } from "./dom.js"
import type { Event, Flow } from "./flow.js"
import type { Translate } from "./i18n.js"
import type { NextAction } from "./store-types.js"


let frames = 0

const CSS =
  ".pgs-3ds{display:grid;gap:calc(var(--pgs-spacingUnit)*3);padding:calc(var(--pgs-spacingUnit)*3);border:2px solid var(--pgs-colorPrimary);border-radius:var(--pgs-borderRadius);background:var(--pgs-colorBackground)}.pgs-3ds h2{font-size:1em;font-weight:600}" +
  ".pgs-acs{display:block;width:100%;height:min(600px,80vh);border:0;border-radius:var(--pgs-borderRadius);background:#fff}"

/** The widget's 3-D Secure dialog (before the method list, which it locks); `host` holds the bank's frames. */
export type Dialog = { host: HTMLElement; paint(open: boolean, t: Translate): void }

/** Made when a payment first needs 3-D Secure: shown while the bank asks, with a Cancel that calls `cancel`. */
export function dialog(before: Element, cancel: () => void): Dialog {
  const title = h("h2", { id: "pgs-acs-title" })
  const host = h("div")
  const button = h("button", { type: "button", className: "pgs-cancel", onclick: cancel })
  const box = h("div", { className: "pgs-3ds", role: "dialog", "aria-modal": "true", "aria-labelledby": "pgs-acs-title", hidden: true }, title, host, button)
  addStyles(before, CSS)
  before.before(box)
  return {
    host,
    paint(open, t) {
      box.hidden = !open
      title.textContent = t("challenge")
      button.textContent = t("cancel")
    },
  }
}

/**
 * A form posting `fields` to `url` in `target` (an iframe name, or the page itself). A frame's form goes next to
 * it (`parent`): inside the widget's shadow root, where the frame is.
 */
export function postForm(url: string, fields: Record<string, string>, target = "_self", parent: Element = document.body): void {
  const form = document.createElement("form")
  form.method = "POST"
  form.action = url
  form.target = target
  form.hidden = true
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement("input")
    input.type = "hidden"
    input.name = name
    input.value = value
    form.appendChild(input)
  }
  parent.appendChild(form)
  form.submit()
  form.remove()
}

function frame(host: Element, title: string, hidden: boolean): HTMLIFrameElement {
  const f = document.createElement("iframe")
  f.name = `pgs-3ds-${++frames}`
  f.title = title
  if (hidden) {
    f.setAttribute("aria-hidden", "true")
    f.tabIndex = -1
    f.style.cssText = "position:absolute;width:0;height:0;border:0"
  } else f.className = "pgs-acs"
  host.appendChild(f)
  return f
}

/**
 * Fingerprint: resolves with whether the method form was posted. Ends after the fixed wait or as soon as the
 * ACS's page has reported to the notification URL (the frame's second load), whichever comes first.
 */
export function runFingerprint(step: Extract<NextAction, { type: "fingerprint" }>, host: Element, waitMs = 5000): Promise<boolean> {
  if (!step.method_url || !step.three_ds_method_data) return Promise.resolve(false)
  const f = frame(host, "3-D Secure", true)
  return new Promise((resolve) => {
    let loads = 0
    const done = () => {
      clearTimeout(timer)
      f.remove()
      resolve(true)
    }
    const timer = setTimeout(done, waitMs)
    // Count only the ACS's pages (cross-origin: reading their location throws), not the frame's initial about:blank:
    // the method page, then the notification URL it posts to.
    f.onload = () => {
      try {
        void f.contentWindow!.location.href
      } catch {
        if (++loads >= 2) done()
      }
    }
    postForm(step.method_url!, { threeDSMethodData: step.three_ds_method_data! }, f.name, host)
  })
}

/**
 * Challenge: shows the ACS in an iframe and resolves with its trans_status. Accepts CHALLENGE_RESPONSE only from
 * the ACS origin and this iframe; `null` when our own backend's notification page says it already completed.
 */
export function runChallenge(
  step: Extract<NextAction, { type: "challenge" }>,
  host: Element,
  title: string,
  backendOrigin: string | null,
): { result: Promise<string | null>; cancel(): void } {
  const f = frame(host, title, false)
  if (step.challenge_window_size === "01") f.style.height = "400px"
  const acsOrigin = new URL(step.acs_url).origin
  let listener: (e: MessageEvent) => void = () => {}
  const result = new Promise<string | null>((resolve) => {
    listener = (e) => {
      if (e.source !== f.contentWindow || !e.data) return
      if (e.origin === acsOrigin && e.data.type === "CHALLENGE_RESPONSE" && typeof e.data.trans_status === "string") resolve(e.data.trans_status)
      else if (e.origin === backendOrigin && e.data.type === "PGS_3DS_COMPLETE") resolve(null)
    }
    addEventListener("message", listener)
  })
  const cancel = () => {
    removeEventListener("message", listener)
    f.remove()
  }
  result.then(cancel)
  postForm(step.acs_url, { creq: step.creq }, f.name, host)
  f.focus()
  return { result, cancel }
}

/**
 * The call a 3-D Secure state of the flow (flow.ts) asks for: the browser's step (the method form, the challenge)
 * first, then telling the store how it went. `challenged` gets the running challenge, so Cancel can end it.
 * `connection`: the widget's; a base URL's origin is the Medusa backend's, whose notification page posts from there.
 */
export async function secureCall(
  f: Flow,
  api: Api,
  host: Element,
  title: string,
  connection: Connection,
  challenged: (c: { cancel(): void }) => void,
): Promise<Event> {
  const session = (f.session ?? f.unsettled)!
  if (f.state === "fingerprint") {
    if (f.posted === undefined && f.step?.type === "fingerprint") return { type: "fingerprinted", posted: await runFingerprint(f.step, host) }
    return { type: "session", session: await sessionRoute(api, session.id, "three-ds/request-authentication", { method_completed: f.posted }) }
  }
  if (f.trans === undefined && f.step?.type === "challenge") {
    const c = runChallenge(f.step, host, title, "baseUrl" in connection ? new URL(connection.baseUrl).origin : null)
    challenged(c)
    return { type: "challenged", trans: await c.result }
  }
  return { type: "session", session: await sessionRoute(api, session.id, "three-ds/authentication-completed", { trans_status: f.trans }) }
}
