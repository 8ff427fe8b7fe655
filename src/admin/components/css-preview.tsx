import type { CSSProperties } from "react"

/**
 * A stand-in for the Embedded Fields card form, drawn with the same CSS variables, so the admin sees the effect of
 * each value before saving. The real form lives in the gateway's iframe and reads the variables the same way.
 */
export function CssPreview({ variables }: { variables: Record<string, string> }) {
  const style = Object.fromEntries(Object.entries(variables).filter(([, v]) => v.trim() !== "")) as CSSProperties
  const input: CSSProperties = {
    fontSize: "var(--lib-input-font-size, 14px)",
    color: "var(--lib-input-color, #111)",
    border: "1px solid var(--lib-input-border-color, #ccc)",
    borderRadius: "var(--lib-input-border-radius, 6px)",
    padding: "6px 8px",
    width: "100%",
  }
  const label: CSSProperties = { fontSize: "var(--lib-label-font-size, 12px)", display: "block", marginBottom: 2 }
  return (
    <div
      data-testid="pgs-css-preview"
      aria-label="Embedded fields preview"
      style={{ ...style, fontFamily: "var(--lib-font-family, inherit)", background: "#fff", padding: 12, borderRadius: 8, border: "1px dashed #ddd" }}
    >
      <label style={label}>
        Card number
        <input readOnly style={input} placeholder="4000 0000 0000 1000" />
      </label>
      <div style={{ display: "flex", gap: 8, marginTop: 8 }}>
        <label style={{ ...label, flex: 1 }}>
          Expiry
          <input readOnly style={{ ...input, borderColor: "var(--lib-input-focus-border-color, #0a66c2)", color: "var(--lib-input-focus-color, #111)" }} placeholder="12/30" />
        </label>
        <label style={{ ...label, flex: 1 }}>
          CVV
          <input readOnly style={input} placeholder="123" />
        </label>
      </div>
      <p style={{ color: "var(--lib-warning-color, #b00020)", background: "var(--lib-warning-background-color, #fdecea)", fontSize: 12, padding: 4, marginTop: 8 }}>
        Example warning: the card number is incomplete
      </p>
      <button
        type="button"
        style={{
          marginTop: 8,
          width: "100%",
          padding: "8px",
          color: "var(--lib-accent-color, #fff)",
          background: "var(--lib-accent-background-color, #0a66c2)",
          borderRadius: "var(--lib-button-border-radius, 6px)",
          fontSize: "var(--lib-button-font-size, 14px)",
          border: "none",
        }}
      >
        Pay
      </button>
      <style>{`[data-testid="pgs-css-preview"] input::placeholder { color: var(--lib-place-holder-color, #999); }`}</style>
    </div>
  )
}
