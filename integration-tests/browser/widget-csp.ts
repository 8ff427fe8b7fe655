/**
 * The Content-Security-Policy docs/widget.md gives storefronts, read from its code block (so the page and the
 * browser test state the same directives), and a recorder of the violations Chromium reports on a shop page.
 */
import { readFileSync } from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { SHOP_NONCE } from "./widget-support"

const DOC = path.join(__dirname, "../../docs/widget.md")

/**
 * The directives of the docs' "Content-Security-Policy" blocks, placeholders filled in: the embedded fields' policy,
 * plus with `directApi` the sources the second block adds for 3-D Secure in the widget's own steps.
 */
export function widgetPolicy(origins: { backend: string; gateway: string; directApi?: boolean }): Map<string, string[]> {
  const section = readFileSync(DOC, "utf8").split("\n## Content-Security-Policy\n")[1]?.split("\n## ")[0] ?? ""
  const blocks = [...section.matchAll(/```text\n([\s\S]*?)```/g)].map((m) => m[1]!)
  if (blocks.length !== 2) throw new Error("docs/widget.md's Content-Security-Policy section should hold 2 text blocks")
  const gateway = new URL(origins.gateway).origin
  const fill = (block: string) => block.replaceAll("{BACKEND}", new URL(origins.backend).origin).replaceAll("{GATEWAY}", gateway).replaceAll("{ACS}", gateway)
  const policy = new Map<string, string[]>()
  for (const block of origins.directApi ? blocks : blocks.slice(0, 1))
    for (const [name, ...sources] of fill(block).split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0]))
      policy.set(name!, [...new Set([...(policy.get(name!) ?? []), ...sources])]) // the second block adds sources
  return policy
}

/**
 * The header a shop sends: the widget's policy plus the shop's own inline script (its nonce). Not in style-src: a
 * nonce there turns off the 'unsafe-inline' the widget's shadow-root styles need (docs/widget.md); the shop's own
 * inline style is allowed by that same 'unsafe-inline'.
 */
export function shopHeader(policy: Map<string, string[]>): string {
  const own = new Map(policy)
  own.set("script-src", [...(own.get("script-src") ?? []), `'nonce-${SHOP_NONCE}'`])
  return [...own].map(([name, sources]) => [name, ...sources].join(" ")).join("; ")
}

/** The policy with `source` taken out of `directive` (stricter than the docs'). */
export function without(policy: Map<string, string[]>, directive: string, source: string): Map<string, string[]> {
  const stricter = new Map(policy)
  stricter.set(directive, policy.get(directive)!.filter((s) => s !== source))
  return stricter
}

export type Violations = { events: () => Promise<{ directive: string; blocked: string }[]>; console: string[] }

/**
 * Records, from the page's first load on (call it in `open`'s `before`), the `securitypolicyviolation` events of the
 * page and its frames that we can read (same origin) and every console message naming the Content Security Policy
 * (any frame). Not by reloading a loaded page: its first widget's session call, still running in the store, could then
 * replace the reloaded widget's card session, which the widget rightly answers at Pay with "expired" and fresh
 * fields (two full runs under load failed that way).
 */
export async function recordViolations(page: Page): Promise<Violations> {
  const console: string[] = []
  page.on("console", (m) => /Content.Security.Policy/i.test(m.text()) && console.push(m.text()))
  await page.addInitScript(() => {
    const seen: { directive: string; blocked: string }[] = ((window as any).cspViolations = [])
    window.addEventListener("securitypolicyviolation", (e) => seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI }), true)
  })
  return { events: () => page.evaluate(() => (window as any).cspViolations ?? []), console }
}
