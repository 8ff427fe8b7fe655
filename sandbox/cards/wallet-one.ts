/**
 * The sandbox's wallet-one token. The real token is a JSON string with a signature, an intermediate signing
 * key, a protocol version and a signed message; the sandbox keeps that shape but does not encrypt:
 *
 *   wallet_one_token = Base64( JSON.stringify({
 *     protocolVersion: "ECv2",
 *     signature: Base64( SHA-256( signedMessage ) ),
 *     intermediateSigningKey: { signedKey: "<any non-empty string>", signatures: ["<any non-empty string>"] },
 *     signedMessage: JSON.stringify({
 *       cardNetwork: "VISA" | "MASTERCARD",
 *       paymentMethodDetails: { pan: "4000000000001000", expirationMonth: 12, expirationYear: 2030,
 *                               authMethod: "PAN_ONLY" | "CRYPTOGRAM_3DS", cryptogram?: "...", eciIndicator?: "05" },
 *     }),
 *   }) )
 *
 * Assumption: the signature is a SHA-256 digest of signedMessage, so tests can build tokens without a wallet key.
 */
import { createHash } from "node:crypto"
import { z } from "zod"
import { rejectField } from "./errors"
import * as plain from "./plain-text"
import type { PlainCard } from "./credentials"

const PROPERTY = "payment_method.data.wallet_one_token"

const walletToken = z.object({
  protocolVersion: z.literal("ECv2"),
  signature: z.string().min(1),
  intermediateSigningKey: z.object({ signedKey: z.string().min(1), signatures: z.array(z.string().min(1)).min(1) }),
  signedMessage: z.string().min(1),
})
const signedMessage = z.object({
  cardNetwork: z.enum(["VISA", "MASTERCARD"]),
  paymentMethodDetails: z.object({
    pan: z.string(),
    expirationMonth: z.union([z.int(), z.string()]),
    expirationYear: z.union([z.int(), z.string()]),
    authMethod: z.enum(["PAN_ONLY", "CRYPTOGRAM_3DS"]),
    cryptogram: z.string().min(1).optional(),
    eciIndicator: z.string().optional(),
  }),
})

export const walletSignature = (signedMessageJson: string) => createHash("sha256").update(signedMessageJson).digest("base64")

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw rejectField(PROPERTY, `${what} is not well-formed JSON`)
  }
}

function firstIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0]
  return `${prefix}${issue.path.length ? `.${issue.path.join(".")}` : ""}: ${issue.message}`
}

/** The card and authentication method a wallet-one token carries; any malformed part is a 422 on the token. */
export function decodeWalletOneToken(token: string): { card: PlainCard; auth_method: "PAN_ONLY" | "CRYPTOGRAM_3DS" } {
  const outer = walletToken.safeParse(parseJson(Buffer.from(token, "base64").toString("utf8"), "the decoded token"))
  if (!outer.success) throw rejectField(PROPERTY, firstIssue(outer.error, "token"))
  if (outer.data.signature !== walletSignature(outer.data.signedMessage)) throw rejectField(PROPERTY, "signature does not verify")
  const inner = signedMessage.safeParse(parseJson(outer.data.signedMessage, "signedMessage"))
  if (!inner.success) throw rejectField(PROPERTY, firstIssue(inner.error, "signedMessage"))
  const d = inner.data.paymentMethodDetails
  if (d.authMethod === "CRYPTOGRAM_3DS" && !d.cryptogram) throw rejectField(PROPERTY, "signedMessage.paymentMethodDetails.cryptogram: required for CRYPTOGRAM_3DS")
  const card: PlainCard = {
    number: plain.cardNumber(d.pan, PROPERTY),
    cvv: null,
    expiration_month: plain.expirationMonth(String(d.expirationMonth), PROPERTY),
    expiration_year: plain.expirationYear(String(d.expirationYear), PROPERTY),
  }
  return { card, auth_method: d.authMethod }
}
