/**
 * Chromium as a mid-range phone on a slow network: every page of a context gets the DevTools protocol's network
 * emulation (round trip, down and up rates) and a slowed CPU, once `emulate()` is called, and reports, on the
 * browser's wall clock (`marks`): the shopper's actions (trusted key presses and clicks in any frame), each frame's
 * DOMContentLoaded with its URL, and the moment the gateway's card-number field can be typed into.
 *
 * Site isolation is off, as on Android's Chrome: the gateway's frames run in the page's process, so the one DevTools
 * session's emulation and request log cover them too (an isolated frame would escape both).
 */
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core"
import { NetworkRecorder } from "./recorder"

export const NETWORK = { roundTripMs: 150, downKbps: 1600, upKbps: 750 }
export const CPU_SLOWDOWN = 4

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-site-isolation-trials", "--disable-features=IsolateOrigins,site-per-process",
    ],
  })
}

/** `detail`: the URL of a page or frame loaded ("loaded"), or a label the bench gives ("shown"). */
export type Mark = { kind: "action" | "card-ready" | "loaded" | "shown"; detail: string; at: number }

export type MeasuredPage = {
  page: Page
  context: BrowserContext
  network: NetworkRecorder
  marks: Mark[]
  /** The first mark of `kind` at or after `after` (wall-clock ms) whose detail matches; waits for it up to 60 s. */
  next(kind: Mark["kind"], after: number, detail?: RegExp): Promise<number>
  /** From now on: the phone's network and CPU. */
  emulate(): Promise<void>
  close(): Promise<void>
}

export async function measuredPage(browser: Browser, gatewayOrigin: string): Promise<MeasuredPage> {
  const context = await browser.newContext({ locale: "en-US", viewport: { width: 412, height: 915 } })
  const marks: Mark[] = []
  await context.exposeBinding("__benchMark", (_source, kind: Mark["kind"], detail: string, at: number) => void marks.push({ kind, detail, at }))
  // As source text: tsx's compiled functions call a helper (__name) that exists only in Node, not in the page.
  await context.addInitScript({ content: `(${INSTRUMENT_FRAME})(${JSON.stringify(gatewayOrigin)})` })
  const page = await context.newPage()
  const session = await context.newCDPSession(page)
  const network = new NetworkRecorder(session)
  await session.send("Network.enable")
  return {
    page,
    context,
    network,
    marks,
    next: async (kind, after, detail) => {
      const deadline = Date.now() + 60_000
      for (;;) {
        const found = marks.find((m) => m.kind === kind && m.at >= after && (!detail || detail.test(m.detail)))
        if (found) return found.at
        if (Date.now() > deadline) throw new Error(`no "${kind}"${detail ? ` ${detail}` : ""} mark within 60 s; marks: ${JSON.stringify(marks.slice(-8))}`)
        await new Promise((r) => setTimeout(r, 50))
      }
    },
    emulate: async () => {
      await session.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: NETWORK.roundTripMs,
        downloadThroughput: (NETWORK.downKbps * 1000) / 8,
        uploadThroughput: (NETWORK.upKbps * 1000) / 8,
      })
      await session.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN })
    },
    close: () => context.close(),
  }
}

/** Runs in every frame before its own scripts. */
const INSTRUMENT_FRAME = `function (gatewayOrigin) {
  const mark = (kind, detail) => window.__benchMark(kind, detail || "", performance.timeOrigin + performance.now())
  for (const type of ["keydown", "click"]) addEventListener(type, (e) => e.isTrusted && mark("action", type), true)
  addEventListener("DOMContentLoaded", () => mark("loaded", location.href))
  if (location.origin !== gatewayOrigin) return
  // Ready means a shopper can type: the gateway's own script rendered the field (it does so only once it has read
  // the session), it is enabled, and the frame is shown at least one input high (the widget's placeholder rule).
  const typeable = () => {
    const input = document.getElementById("in-cardNumber")
    return !!input && !input.disabled && !input.readOnly && input.getClientRects().length > 0 && innerHeight >= 48
  }
  const check = () => {
    if (!typeable()) return
    mark("card-ready", location.href)
    observer.disconnect()
    removeEventListener("resize", check)
  }
  const observer = new MutationObserver(check)
  addEventListener("DOMContentLoaded", () => {
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true })
    check()
  })
  addEventListener("resize", check)
}`
