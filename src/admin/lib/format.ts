/** Display helpers shared by the pages. */
/** "Nov 27, 2026, 10:45 PM" in the browser's locale, as Medusa's own pages write dates (not "11/27/2026"). */
export const dateTime = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "—")

/** StatusBadge colour for a gateway or payout status. */
export function statusColor(status: string | null | undefined): "green" | "orange" | "red" | "grey" | "blue" {
  switch (status) {
    case "APPROVED":
      return "green"
    case "PENDING":
    case "CREATING":
    case "CREATED":
      return "orange"
    case "DECLINED":
    case "FAILED":
    case "INVALID":
    case "SESSION_EXPIRED":
      return "red"
    case "CANCELED":
      return "grey"
    default:
      return "blue"
  }
}

export const money = (amount: number | string, currency: string) => `${amount} ${currency.toUpperCase()}`
