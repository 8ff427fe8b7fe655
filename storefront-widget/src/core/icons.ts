/** One small inline SVG per kind of method (drawn with the text colour; no network fetch). */
const PATHS = {
  card: '<rect x="2" y="5" width="20" height="14" rx="2"/><path d="M2 10h20M6 15h4"/>',
  bank: '<path d="M3 10h18L12 4zM5 10v8m4.7-8v8m4.6-8v8m4.7-8v8M3 20h18"/>',
  wallet: '<path d="M4 7h15a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h11"/><path d="M16 12h5v4h-5z"/>',
  qr: '<path d="M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2zM14 18h2"/>',
  instant: '<path d="M13 2 4 14h7l-1 8 9-12h-7z"/>',
  voucher: '<path d="M3 7h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4zM14 7v10"/>',
  lock: '<rect x="5" y="11" width="14" height="9" rx="2"/><path d="M8 11V8a4 4 0 0 1 8 0v3"/>',
}
export type Icon = keyof typeof PATHS

/** Family (provider identifier without `pgs-`) → its icon. */
const FAMILY: Record<string, Icon> = {
  upi: "qr", "qr-code": "qr", wallets: "wallet", "wallet-one-redirect": "wallet", "wallet-two-redirect": "wallet",
  "provider-instant": "instant", "voucher-redirect": "voucher", hosted: "lock",
}

export const iconFor = (family: string): Icon => FAMILY[family] ?? (family === "card" ? "card" : "bank")

export const svg = (icon: Icon) => `<svg viewBox="0 0 24 24" aria-hidden="true">${PATHS[icon]}</svg>`
