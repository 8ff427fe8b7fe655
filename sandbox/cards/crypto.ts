/** Decryption of the merchant's encrypted card fields: RSA-OAEP, SHA-256, MGF1-SHA-256, Base64. */
import { constants, privateDecrypt } from "node:crypto"
import type { SandboxContext } from "../core/context"

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/

/** The plain text of one encrypted field, or null when it cannot be decrypted (the simulator's fallback case). */
export function decryptField(ctx: SandboxContext, encrypted: string | undefined): string | null {
  if (!encrypted) return null
  const compact = encrypted.replace(/\s+/g, "")
  if (!BASE64.test(compact)) return null
  try {
    return privateDecrypt(
      { key: ctx.keys.merchant.privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: "sha256" },
      Buffer.from(compact, "base64"),
    ).toString("utf8")
  } catch {
    return null
  }
}
