/** Tiny DOM helpers and the widget's default styles (class names prefixed `pgs-`; pass `styles: false` to skip). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, any> = {}, ...children: (Node | string | null | false)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(props)) {
    if (v == null || v === false) continue
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v)
    else if (k in el && k !== "list") (el as any)[k] = v
    else el.setAttribute(k, v === true ? "" : String(v))
  }
  for (const c of children) if (c) el.append(c)
  return el
}

export const resolveTarget = (t: Element | string): Element => {
  const el = typeof t === "string" ? document.querySelector(t) : t
  if (!el) throw new Error(`pgs widget: no element ${String(t)}`)
  return el
}

const CSS =
  ".pgs [hidden]{display:none!important}.pgs{display:grid;gap:12px;font:inherit;max-width:100%}.pgs fieldset{border:0;margin:0;padding:0;display:grid;gap:8px}" +
  ".pgs legend{font-weight:600;margin-bottom:4px}.pgs-opt{display:flex;align-items:center;gap:8px;flex-wrap:wrap;padding:10px 12px;border:1px solid #d0d0d7;border-radius:8px}" +
  ".pgs-opt:focus-within{outline:2px solid #2f6fde;outline-offset:1px}.pgs-opt label{flex:1;min-width:12em}" +
  ".pgs button{font:inherit;min-height:44px;padding:0 16px;border-radius:8px;border:1px solid #888;background:#fff;cursor:pointer}" +
  ".pgs .pgs-pay{background:#1a1a1a;color:#fff;border-color:#1a1a1a}.pgs button:disabled{opacity:.6;cursor:default}" +
  ".pgs-error:empty,.pgs-status:empty{display:none}.pgs-error{color:#b00020;margin:0}.pgs-status{margin:0}" +
  ".pgs input[type=text]{font:inherit;min-height:40px;padding:0 10px;border:1px solid #888;border-radius:6px;width:100%;box-sizing:border-box}" +
  ".pgs-acs{display:block;width:100%;max-width:600px;height:min(600px,80vh);border:1px solid #d0d0d7;border-radius:8px;background:#fff}"

export function injectStyles(): void {
  if (document.getElementById("pgs-css")) return
  document.head.append(h("style", { id: "pgs-css" }, CSS))
}
