/**
 * The shopper's address: the one every part of the plugin uses (the gateway's customer_ip, the card-testing
 * guard). X-Forwarded-For is written by whoever sends the request, so it is believed only across the proxies the
 * store named (option trustedProxies, PGS_TRUSTED_PROXIES), read the way Express's "trust proxy" reads it (proxy-addr).
 * With no proxy named, the connection's own address: a header a client made up changes nothing.
 * Medusa's req.ip is not used: Medusa tells Express to trust one hop, whether or not a proxy is there.
 */
import type { MedusaRequest } from "@medusajs/framework/http"
import type { IncomingMessage } from "node:http"
import { isIP } from "node:net"
import proxyAddr from "proxy-addr"
import { PGS_MODULE } from "../modules/pgs"
import type PgsModuleService from "../modules/pgs/service"
import type { PgsProviderOptions } from "../modules/pgs/options"

export type TrustedProxies = PgsProviderOptions["trustedProxies"]
type Trust = (address: string, hop: number) => boolean

const compiled = new Map<string, Trust>()

/** Express's reading of the setting: a count trusts that many hops from the socket inwards, a list those addresses. */
function trustOf(proxies: TrustedProxies): Trust {
  const key = JSON.stringify(proxies)
  let trust = compiled.get(key)
  if (!trust) {
    trust = typeof proxies === "number" ? (_address, hop) => hop < proxies : proxyAddr.compile(proxies)
    compiled.set(key, trust)
  }
  return trust
}

/** An address as the gateway wants it: IPv4-mapped IPv6 unwrapped; undefined when it is not an IP address. */
export function plainAddress(ip: string | undefined): string | undefined {
  if (!ip) return undefined
  const plain = ip.startsWith("::ffff:") && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip
  return isIP(plain) ? plain : undefined
}

/**
 * The client's address behind the given proxies (default: the store's option). Undefined only when the socket
 * has none (a closed connection).
 */
export function clientAddress(req: MedusaRequest | IncomingMessage, proxies?: TrustedProxies): string | undefined {
  const setting = proxies ?? (req as MedusaRequest).scope.resolve<PgsModuleService>(PGS_MODULE).trustedProxies()
  if (!req.socket?.remoteAddress) return undefined
  return plainAddress(proxyAddr(req as IncomingMessage, trustOf(setting)))
}
