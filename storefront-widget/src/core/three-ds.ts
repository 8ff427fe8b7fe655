/**
 * The browser's part of a Direct API next step (session data `next_action`), per the spec's client-side steps:
 * fingerprint (hidden iframe posting threeDSMethodData, then the fixed 5 s wait or the method page's completion),
 * challenge (iframe posting creq; only the ACS origin's CHALLENGE_RESPONSE is listened to), redirect, form_submit.
 */
export type NextAction =
  | { type: "fingerprint"; method_url: string | null; three_ds_method_data: string | null }
  | { type: "challenge"; acs_url: string; creq: string; challenge_window_size?: string }
  | { type: "redirect"; url: string }
  | { type: "form_submit"; url: string; fields: Record<string, string> }

let frames = 0

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
