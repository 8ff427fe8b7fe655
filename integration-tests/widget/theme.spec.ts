/**
 * The widget's appearance (storefront-widget/src/core/theme.ts): the variables its shadow root uses, and what
 * reaches the gateway's card fields, in which order, per theme.
 */
import { cardVars, CSS, themeVars } from "../../storefront-widget/src/core/theme"

describe("widget appearance", () => {
  it("themes the widget light by default, dark on request, with the store's variables over the theme", () => {
    const light = themeVars()
    expect(light).toMatchObject({ "--pgs-colorBackground": "#fff", "--pgs-spacingUnit": "4px", "--pgs-borderRadius": "8px" })
    expect(themeVars({ theme: "dark" })["--pgs-colorBackground"]).not.toBe(light["--pgs-colorBackground"])
    expect(themeVars({ theme: "dark", variables: { colorPrimary: "#635bff", fontFamily: "Inter" } })).toMatchObject({
      "--pgs-colorPrimary": "#635bff",
      "--pgs-fontFamily": "Inter",
      "--pgs-colorText": themeVars({ theme: "dark" })["--pgs-colorText"],
    })
  })

  it("passes the overlapping variables to the card fields: explicit ones over the terminal's, the terminal's over the theme's", () => {
    const vars = cardVars({ variables: { colorPrimary: "#635bff" } }, { "--lib-accent-background-color": "#111", "--lib-font-family": "Serif" }, { "--lib-label-font-size": "12px" })
    expect(vars).toMatchObject({
      "--lib-accent-background-color": "#635bff", // explicit beats the terminal
      "--lib-input-focus-border-color": "#635bff",
      "--lib-font-family": "Serif", // the terminal beats the theme's default (an unset variable hides nothing)
      "--lib-label-font-size": "12px", // raw cssVariables pass as they are
      "--lib-input-color": themeVars()["--pgs-colorText"],
    })
    expect(Object.values(vars).every((v) => typeof v === "string" && v !== "")).toBe(true)
  })

  it("keeps the card fields' white inputs legible in the dark theme: no text, border or warning colour passes", () => {
    const dark = cardVars({ theme: "dark", variables: { colorText: "#fff", colorDanger: "#f99", colorBorder: "#333", borderRadius: "4px" } })
    expect(Object.keys(dark).sort()).toEqual(
      ["--lib-accent-background-color", "--lib-accent-color", "--lib-button-border-radius", "--lib-font-family", "--lib-input-border-radius", "--lib-input-focus-border-color"].sort(),
    )
    expect(dark["--lib-input-border-radius"]).toBe("4px")
  })

  it("resets every inherited property at the shadow host, above any rule of the page", () => {
    expect(CSS).toMatch(/^:host\{all:initial!important;display:block!important;width:100%!important\}/)
  })
})
