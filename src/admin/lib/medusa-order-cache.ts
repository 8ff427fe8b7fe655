import { useQueryClient } from "@tanstack/react-query"

/**
 * Medusa's own sections of the order page (Summary, Payments, Activity) read the order through the dashboard's query
 * cache, which its own capture and refund buttons invalidate (key "orders"). After the widget changes a payment, the
 * same key is invalidated, so Medusa's sections do not go on showing the payment as it was until a reload. The
 * dashboard provides the query client (Medusa's admin tips: Tanstack Query in customizations is the dashboard's).
 */
export function useRefreshMedusaOrder(): () => void {
  const client = useQueryClient()
  return () => void client.invalidateQueries({ queryKey: ["orders"] })
}
