/** Branded ids: a session id cannot be passed where a transaction id is expected. */
import { z } from "zod"

export const gatewayTransactionId = z.string().min(1).brand<"GatewayTransactionId">()
export type GatewayTransactionId = z.infer<typeof gatewayTransactionId>
export const gatewaySessionId = z.string().min(1).brand<"GatewaySessionId">()
export type GatewaySessionId = z.infer<typeof gatewaySessionId>
export const gatewayCustomerId = z.string().min(1).brand<"GatewayCustomerId">()
export type GatewayCustomerId = z.infer<typeof gatewayCustomerId>
export const gatewayPaymentMethodId = z.string().min(1).brand<"GatewayPaymentMethodId">()
export type GatewayPaymentMethodId = z.infer<typeof gatewayPaymentMethodId>

export const asTransactionId = (id: string) => gatewayTransactionId.parse(id)
export const asSessionId = (id: string) => gatewaySessionId.parse(id)
export const asCustomerId = (id: string) => gatewayCustomerId.parse(id)
export const asPaymentMethodId = (id: string) => gatewayPaymentMethodId.parse(id)
