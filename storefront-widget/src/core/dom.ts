/** Tiny DOM helpers and the widget's shell: a shadow root with its own styles, so host stylesheets stay outside. */
import { CSS, themeVars, type Appearance } from "./theme.js"

type Props = Record<string, unknown>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Node | string | null | false | undefined)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v as EventListener)
    else if (k in el && k !== "list") (el as unknown as Props)[k] = v
    else el.setAttribute(k, v === true ? "" : String(v))
  }
  for (const c of children) if (c) el.append(c)
  return el
}

export const resolveTarget = (t: Element | string): Element => {
  const el = typeof t === "string" ? document.querySelector(t) : t
  if (!el) throw new Error(`pgs widget: no element ${t}`)
  return el
}

export type ShellOptions = { appearance?: Appearance; styles?: boolean }

/**
 * The widget's box (`.pgs`) inside `target`: in a shadow root whose host resets every inherited property
 * (`:host{all:initial!important}` outranks any page rule), themed by the appearance's variables.
 * `styles: false` renders into the page itself, unstyled, for a store that styles the `pgs-` classes itself.
 */
export function shell(target: Element, o: ShellOptions): HTMLElement {
  const box = h("div", { className: `pgs pgs-${o.appearance?.theme ?? "light"}` })
  if (o.styles === false) {
    target.replaceChildren(box)
    return box
  }
  for (const [k, v] of Object.entries(themeVars(o.appearance))) box.style.setProperty(k, v)
  const host = h("div", { "data-pgs-host": true })
  host.attachShadow({ mode: "open" }).append(h("style", {}, CSS), box)
  target.replaceChildren(host)
  return box
}

/**
 * The styles of what a lazy chunk adds (3-D Secure's dialog, a method's panel), next to the core's in the widget's
 * shadow root, once; none when the store styles the widget itself (`styles: false`: no shadow root).
 */
export function addStyles(inside: Node, css: string): void {
  const root = inside.getRootNode()
  if (root instanceof ShadowRoot && ![...root.querySelectorAll("style")].some((s) => s.textContent === css)) root.append(h("style", {}, css))
}
