/**
 * Amounts the order widget reads and sends, exactly: the server's views give major-unit decimals with the
 * currency's own number of decimals ("25.50", "1000" for yen), so that number of decimals is what an admin may type
 * and everything is compared in whole minor units (integers), never floats.
 */

/** Decimals of the currency, as the view's amounts are written ("25.50" → 2). */
export const decimalsOf = (viewAmount: string) => (viewAmount.split(".")[1] ?? "").length

/** "25.50" → 2550 with 2 decimals; null when it is not a plain non-negative amount with at most that many decimals. */
export function toMinor(text: string, decimals: number): number | null {
  const m = /^(\d{1,13})(?:[.,](\d*))?$/.exec(text.trim())
  if (!m || (m[2] ?? "").length > decimals) return null
  return Number(m[1]) * 10 ** decimals + Number((m[2] ?? "").padEnd(decimals, "0") || "0")
}

/** 2550 → "25.50" with 2 decimals. */
export function fromMinor(minor: number, decimals: number): string {
  if (!decimals) return String(minor)
  const s = String(minor).padStart(decimals + 1, "0")
  return `${s.slice(0, -decimals)}.${s.slice(-decimals)}`
}

/**
 * "30.345" → 3035 with 2 decimals: more decimals than the currency has are rounded half away from zero (Medusa's
 * taxed totals carry fractions of a cent); null when it is not a plain non-negative decimal.
 */
export function roundedToMinor(text: string, decimals: number): number | null {
  const m = /^(\d{1,13})(?:\.(\d+))?$/.exec(text.trim())
  if (!m) return null
  const fraction = m[2] ?? ""
  const kept = toMinor(`${m[1]}.${fraction.slice(0, decimals)}`.replace(/\.$/, ""), decimals)
  if (kept === null) return null
  return fraction.length > decimals && Number(fraction[decimals]) >= 5 ? kept + 1 : kept
}
