/**
 * Requests our own store/hook routes make of the provider through `paymentModule.updatePaymentSession`
 * (the only way to change a session's data and status through the module). They ride in
 * `data.pgs_request`; the provider trusts none of it: a transaction id is accepted only after the gateway
 * confirms it belongs to this session, and 3-D Secure steps use the sealed payment_data, never the caller's.
 */
import { z } from "zod"
import { browserInfo, TRANS_STATUSES } from "../gateway/schemas"

export const PGS_REQUEST_KEY = "pgs_request"

const common = { customer_ip: z.union([z.ipv4(), z.ipv6()]).optional() }

/** The payer as the cart knows them (read server-side from the cart by our client-info route). */
export const cartPayer = z
  .object({
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    phone: z.string(),
    /** ISO 3166-1 alpha-2, upper case. */
    country: z.string().regex(/^[A-Z]{2}$/),
    address: z.string(),
    city: z.string(),
    postal_code: z.string(),
  })
  .partial()
export type CartPayer = z.infer<typeof cartPayer>

export const serverRequest = z.discriminatedUnion("kind", [
  /** The storefront's: the transaction a gateway page (embedded fields, hosted page) made. */
  z.object({ kind: z.literal("attach_transaction"), transaction_id: z.string().min(1).max(100), ...common }),
  /** The webhook workflow's: a transaction the gateway reported for this session, whatever its integration. */
  z.object({ kind: z.literal("record_transaction"), transaction_id: z.string().min(1).max(100), ...common }),
  z.object({ kind: z.literal("client_info"), browser_info: browserInfo.optional(), payer: cartPayer.optional(), ...common }),
  z.object({ kind: z.literal("request_authentication"), method_completed: z.boolean(), ...common }),
  z.object({ kind: z.literal("authentication_completed"), trans_status: z.enum(TRANS_STATUSES), ...common }),
  z.object({ kind: z.literal("cres"), cres: z.string().min(1).max(10_000), ...common }),
])
export type ServerRequest = z.infer<typeof serverRequest>

/**
 * The one way to put a request in session data (the store routes' and the webhook workflow's), typed by the schema
 * the provider parses it with; the provider's check answers a malformed one as invalid data, naming the field.
 */
export function withServerRequest(data: Record<string, unknown>, request: ServerRequest): Record<string, unknown> {
  return { ...data, [PGS_REQUEST_KEY]: request }
}
