/**
 * 3-D Secure helpers for the merchant server and the page it renders: decode the action token, build the
 * fingerprint form value (threeDSMethodData) and the challenge request (CReq), read a `cres` posted to an
 * overridden notification URL, and the fingerprint_result of request-authentication.
 */
import { z } from "zod"
import { actionToken, type ActionToken } from "./schemas/responses"
import { TRANS_STATUSES, type AuthenticationCompletedRequest } from "./schemas/requests"

export class ThreeDSDecodeError extends Error {
  override name = "ThreeDSDecodeError"
}

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64")

function decodeJson(encoded: string, what: string): unknown {
  try {
    // Node's base64 decoder accepts both the standard and the URL-safe alphabet, with or without padding.
    return JSON.parse(Buffer.from(encoded.trim(), "base64").toString("utf8"))
  } catch {
    throw new ThreeDSDecodeError(`${what} is not Base64-encoded JSON`)
  }
}

/** `action.token` → its fields (three_ds_server_trans_id, acs_url, ...). */
export function decodeActionToken(token: string): ActionToken {
  const parsed = actionToken.safeParse(decodeJson(token, "action.token"))
  if (!parsed.success) throw new ThreeDSDecodeError(`action.token lacks ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`)
  return parsed.data
}

/** The hidden form posted to the method URL inside an iframe; null when there is no method URL (skip the iframe). */
export function fingerprintForm(token: ActionToken): { url: string; fields: { threeDSMethodData: string } } | null {
  if (!token.three_ds_method_url) return null
  return {
    url: token.three_ds_method_url,
    fields: {
      threeDSMethodData: base64Json({
        threeDSServerTransID: token.three_ds_server_trans_id,
        threeDSMethodNotificationURL: token.three_ds_method_notification_url,
      }),
    },
  }
}

/** The `threeDSMethodData` form value alone (Base64 JSON), or null when there is no method URL. */
export const buildThreeDSMethodData = (token: ActionToken): string | null => fingerprintForm(token)?.fields.threeDSMethodData ?? null

/** `fingerprint_result` for request-authentication: Base64 of Y when the method form was submitted, of N when there was no method URL. */
export const fingerprintResult = (submitted: boolean) => Buffer.from(submitted ? "Y" : "N").toString("base64")

/** The challenge form: `creq` posted to acs_url. */
export function challengeForm(token: ActionToken): { url: string; fields: { creq: string } } {
  return {
    url: token.acs_url,
    fields: {
      creq: base64Json({
        threeDSServerTransID: token.three_ds_server_trans_id,
        acsTransID: token.acs_trans_id,
        messageVersion: token.message_version,
        messageType: "CReq",
        challengeWindowSize: token.challenge_window_size,
      }),
    },
  }
}

/** The `creq` form value alone (Base64 JSON, messageType CReq). */
export const buildCReq = (token: ActionToken): string => challengeForm(token).fields.creq

export const cres = z.object({ threeDSServerTransID: z.string().min(1), transStatus: z.enum(TRANS_STATUSES) }).loose()
export type Cres = z.infer<typeof cres>

/** The `cres` form parameter the ACS posts to an overridden notification URL (Base64URL JSON). */
export function parseCres(value: string): Cres {
  const parsed = cres.safeParse(decodeJson(value, "cres"))
  if (!parsed.success) throw new ThreeDSDecodeError(`cres lacks ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`)
  return parsed.data
}

/** The authentication-completed body after a `cres`: session_id is the 3-D Secure server transaction id. */
export function authenticationCompletedFromCres(value: string, paymentData: string): AuthenticationCompletedRequest {
  const c = parseCres(value)
  return { payment_data: paymentData, session_id: c.threeDSServerTransID, trans_status: c.transStatus }
}
