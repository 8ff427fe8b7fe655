/**
 * The address the guard counts: the shopper's, as every part of the plugin reads it (api/client-address.ts), but an
 * IPv6 address by its /64. One subscriber line is usually given a whole /64, so a bot could otherwise take a fresh
 * address for each attempt. IPv4 as it is. (The gateway's customer_ip stays the full address.)
 */
import type { MedusaRequest } from "@medusajs/framework/http"
import ipaddr from "ipaddr.js"
import { clientAddress } from "../client-address"

export function guardKeyOf(address: string): string {
  if (!ipaddr.IPv6.isValid(address)) return address
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4)
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`
}

export const guardAddress = (req: MedusaRequest): string | null => {
  const address = clientAddress(req)
  return address ? guardKeyOf(address) : null
}
