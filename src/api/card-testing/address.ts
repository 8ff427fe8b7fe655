/** The address the guard counts: the shopper's, as every part of the plugin reads it (api/client-address.ts). */
import type { MedusaRequest } from "@medusajs/framework/http"
import { clientAddress } from "../client-address"

export const guardAddress = (req: MedusaRequest): string | null => clientAddress(req) ?? null
