/**
 * The one place gateway and provider errors become MedusaErrors. The message a Medusa route shows is the
 * shopper-safe one when a shopper caused the call; the merchant diagnostics go to the log (and never contain
 * secrets: the client builds them from status, route and the gateway's own text).
 */
import { MedusaError } from "@medusajs/framework/utils"
import { isGatewayError, MoneyError, type AnyGatewayError } from "../../gateway"
import { SessionDataError } from "../../payments/session-data"
import { SealError } from "../../payments/seal"
import { GATEWAY_UNAVAILABLE, GATEWAY_UNAVAILABLE_MESSAGE } from "../../payments/gateway-unavailable"

export type Audience = "shopper" | "merchant"

type Logger = { error?: (message: string) => void; warn?: (message: string) => void }

const typeFor = (e: AnyGatewayError): string => {
  switch (e.type) {
    case "validation":
    case "bad_request":
      return MedusaError.Types.INVALID_DATA
    case "not_found":
      return MedusaError.Types.NOT_FOUND
    // 500 with our message kept (Medusa replaces CONFLICT messages with a generic one).
    case "outcome_unknown":
    case "unauthorized":
    case "forbidden":
    case "rate_limited":
    case "unavailable":
    case "timeout":
    case "protocol":
      return MedusaError.Types.UNEXPECTED_STATE
  }
}

/** The gateway is away or refuses the store (not the shopper's doing, and nothing was charged). */
const OUTAGE = new Set(["unauthorized", "forbidden", "rate_limited", "unavailable", "timeout"])

export function toMedusaError(error: unknown, operation: string, audience: Audience, logger?: Logger): MedusaError {
  if (error instanceof MedusaError) return error
  if (isGatewayError(error)) {
    logger?.error?.(`PGS ${operation} failed: ${error.merchantMessage}${error.requestId ? ` (request ${error.requestId})` : ""}`)
    // A shopper gets a 4xx they can act on (Medusa's error handler has no 503 and turns a 500 into "unknown"):
    // NOT_ALLOWED keeps the message, and the code lets a storefront (our widget) tell it apart and translate it.
    if (audience === "shopper" && OUTAGE.has(error.type)) return new MedusaError(MedusaError.Types.NOT_ALLOWED, GATEWAY_UNAVAILABLE_MESSAGE, GATEWAY_UNAVAILABLE)
    const message = audience === "shopper" ? error.shopperMessage : `${operation}: ${error.merchantMessage}`
    return new MedusaError(typeFor(error), message)
  }
  if (error instanceof SessionDataError || error instanceof SealError || error instanceof MoneyError) {
    logger?.warn?.(`PGS ${operation}: ${error.message}`)
    return new MedusaError(MedusaError.Types.INVALID_DATA, error.message)
  }
  const message = error instanceof Error ? error.message : String(error)
  logger?.error?.(`PGS ${operation} failed unexpectedly: ${message}`)
  return new MedusaError(MedusaError.Types.UNEXPECTED_STATE, `${operation}: ${message}`)
}
