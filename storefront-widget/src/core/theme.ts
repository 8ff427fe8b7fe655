/**
 * How the widget looks: a light or dark theme and a few appearance variables, and nothing else. It renders in a
 * shadow root whose host resets every inherited property, so no stylesheet of the host page reaches inside.
 */
export type AppearanceVariables = {
  colorPrimary?: string
  /** Text on the primary colour (the Pay button). */
  colorPrimaryText?: string
  colorBackground?: string
  colorText?: string
  colorDanger?: string
  colorBorder?: string
  borderRadius?: string
  fontFamily?: string
  fontSize?: string
  /** The unit every gap and padding is a multiple of (default 4px). */
  spacingUnit?: string
}
export type Appearance = { theme?: "light" | "dark"; variables?: AppearanceVariables }

type Vars = Required<AppearanceVariables>
const BASE = { borderRadius: "8px", fontFamily: 'system-ui,-apple-system,"Segoe UI",Roboto,sans-serif', fontSize: "16px", spacingUnit: "4px" }
const THEMES: Record<"light" | "dark", Vars> = {
  light: { ...BASE, colorPrimary: "#2449d6", colorPrimaryText: "#fff", colorBackground: "#fff", colorText: "#1d1d1f", colorDanger: "#b42318", colorBorder: "#c9ccd3" },
  dark: { ...BASE, colorPrimary: "#9bb5ff", colorPrimaryText: "#0b1020", colorBackground: "#1f2024", colorText: "#f1f1f3", colorDanger: "#ff9b92", colorBorder: "#4a4c55" },
}

/** The widget's own CSS variables (--pgs-*) for an appearance. */
export function themeVars(a: Appearance = {}): Record<string, string> {
  const v = { ...THEMES[a.theme ?? "light"], ...a.variables }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [`--pgs-${k}`, x]))
}

/**
 * The gateway's embedded-fields variables that overlap ours. Its inputs are always white, so in the dark theme
 * only accent, font and radius pass (the card fields sit on a light surface of their own, see CSS).
 */
function fieldVars(v: AppearanceVariables, dark: boolean): Record<string, string> {
  const vars: Record<string, string | undefined> = {
    "--lib-font-family": v.fontFamily,
    "--lib-accent-background-color": v.colorPrimary,
    "--lib-input-focus-border-color": v.colorPrimary,
    "--lib-accent-color": v.colorPrimaryText,
    "--lib-input-border-radius": v.borderRadius,
    "--lib-button-border-radius": v.borderRadius,
    ...(dark ? {} : { "--lib-input-color": v.colorText, "--lib-warning-color": v.colorDanger, "--lib-input-border-color": v.colorBorder }),
  }
  // Only what is set: an unset variable must not hide the terminal's value merged before it.
  return Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => !!e[1]))
}

/**
 * The card fields' variables, weakest first: the theme's defaults, the terminal's (admin settings), the store's
 * explicit appearance variables, then raw `cssVariables`.
 */
export function cardVars(a: Appearance = {}, terminal?: Record<string, string> | null, raw?: Record<string, string>): Record<string, string> {
  const dark = a.theme === "dark"
  return { ...fieldVars(THEMES[a.theme ?? "light"], dark), ...terminal, ...fieldVars(a.variables ?? {}, dark), ...raw }
}

const u = (n: number) => `calc(var(--pgs-spacingUnit)*${n})`

export const CSS =
  ":host{all:initial!important;display:block!important;width:100%!important}[hidden]{display:none!important}" +
  `.pgs{display:grid;gap:${u(3)};font:var(--pgs-fontSize)/1.4 var(--pgs-fontFamily);color:var(--pgs-colorText);min-width:0}.pgs *{box-sizing:border-box;margin:0}button,input,select{font:inherit;color:inherit}` +
  `fieldset{border:0;padding:0;min-width:0}legend{padding:0;margin-bottom:${u(2)};font-weight:600}` +
  ".pgs-rows{border:1px solid var(--pgs-colorBorder);border-radius:var(--pgs-borderRadius);background:var(--pgs-colorBackground);overflow:hidden}.pgs-row+.pgs-row{border-top:1px solid var(--pgs-colorBorder)}" +
  `.pgs-head{display:flex;align-items:center;gap:${u(2)};padding:0 ${u(3)}}` +
  `.pgs-head label{display:flex;align-items:center;gap:${u(3)};flex:1;min-width:0;min-height:48px;padding:${u(2)} 0;cursor:pointer}` +
  "[type=radio],[type=checkbox]{width:18px;height:18px;flex:none;accent-color:var(--pgs-colorPrimary)}" +
  ".pgs-icon{display:flex;flex:none}.pgs-icon svg{width:24px;height:24px;fill:none;stroke:currentColor;stroke-width:1.6;stroke-linecap:round;stroke-linejoin:round}" +
  ".pgs-name{flex:1;min-width:0;overflow-wrap:anywhere}.pgs-open .pgs-name{font-weight:600}" +
  `.pgs-panel,.pgs-row .pgs-error{margin:0 ${u(3)} ${u(3)}}.pgs-panel{display:grid;gap:${u(2)}}.pgs-panel:empty,.pgs-error:empty,.pgs-status:empty{display:none}` +
  "[role=alert]{color:var(--pgs-colorDanger)}.pgs a{color:var(--pgs-colorPrimary)}fieldset:disabled .pgs-head{opacity:.6}" +
  "button{cursor:pointer;min-height:44px;border-radius:var(--pgs-borderRadius);border:1px solid var(--pgs-colorBorder);background:none;padding:0 12px}button:disabled{opacity:.6;cursor:default}" +
  ".pgs-pay{width:100%;min-height:48px;border:0;background:var(--pgs-colorPrimary);color:var(--pgs-colorPrimaryText);font-weight:600}" +
  ":focus-visible{outline:2px solid var(--pgs-colorPrimary);outline-offset:2px}" +
  // The method panels' inputs and 3-D Secure's dialog bring their own styles (panels.ts, three-ds.ts).
  // The card row's placeholder while the session and the gateway's fields load (card-fields.ts clears aria-busy once
  // the frame has its height): as tall as the gateway's fields with a holder name (195 px at any width), so nothing
  // moves when they mount; in the dark theme it shimmers on the fields' own white surface (padding outside it).
  ".pgs-card[aria-busy=true]{box-sizing:content-box;min-height:195px;border-radius:var(--pgs-borderRadius);background-image:linear-gradient(90deg,#8881 30%,#8883 50%,#8881 70%);background-size:300% 100%;animation:pgs-wait 1.5s infinite}@keyframes pgs-wait{to{background-position:-150% 0}}@media (prefers-reduced-motion:reduce){.pgs-card[aria-busy=true]{animation:none}}" +
  ".pgs-dark{color-scheme:dark}.pgs-dark .pgs-card{background-color:#fff;color:#1d1d1f;padding:8px;border-radius:var(--pgs-borderRadius)}"
