/**
 * The pay link's expiry: `/pgs/pay/{payment collection id}?t={expiry}.{mac}`, where mac is an HMAC-SHA256 of the
 * collection id and the expiry under a key derived (HKDF) from the client secret — the secret never leaves the
 * server, and a link cannot be moved to another collection or given a later expiry. Why a signed token and not a
 * row: it holds across server processes without a table or a migration, and nothing needs revoking — a link to a
 * collection already paid or canceled pays nothing anyway. Issuing a new link is signing a later expiry.
 */
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto"

export const PAY_LINK_PATH = "/pgs/pay"
/** Apart from PAY_LINK_PATH so no collection id can ever be taken for it. */
export const PAY_LINK_RESULT_PATH = "/pgs/pay-result"

const keyOf = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "medusa-payment-pgs", "pay-link", 32))
const macOf = (key: Buffer, collectionId: string, expiresAt: number) =>
  createHmac("sha256", key).update(`${collectionId}.${expiresAt}`).digest("base64url")

/** The token for a link to this collection valid until `expiresAt` (ms since the epoch, rounded to seconds). */
export function signPayLink(secret: string, collectionId: string, expiresAt: number): string {
  const seconds = Math.floor(expiresAt / 1000)
  return `${seconds}.${macOf(keyOf(secret), collectionId, seconds)}`
}

export type PayLinkCheck = "valid" | "expired" | "invalid"

/** Whether a token was made by this server for this collection, and is still valid at `now`. */
export function checkPayLink(secret: string, collectionId: string, token: string | undefined, now = Date.now()): PayLinkCheck {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "")
  if (!match) return "invalid"
  const seconds = Number(match[1])
  const expected = Buffer.from(macOf(keyOf(secret), collectionId, seconds))
  const given = Buffer.from(match[2])
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return "invalid"
  return seconds * 1000 > now ? "valid" : "expired"
}

/** The full link a shopper opens. */
export function payLinkUrl(backendUrl: string, secret: string, collectionId: string, expiresAt: number): string {
  const url = new URL(`${backendUrl.replace(/\/+$/, "")}${PAY_LINK_PATH}/${encodeURIComponent(collectionId)}`)
  url.searchParams.set("t", signPayLink(secret, collectionId, expiresAt))
  return url.toString()
}

/** The plugin's result page the hosted page sends the shopper back to (the session tells which collection). */
export function payLinkResultUrl(backendUrl: string, sessionId: string, outcome?: "success" | "error" | "cancel"): string {
  const url = new URL(`${backendUrl.replace(/\/+$/, "")}${PAY_LINK_RESULT_PATH}`)
  url.searchParams.set("pgs_session", sessionId)
  if (outcome) url.searchParams.set("pgs_outcome", outcome)
  return url.toString()
}
