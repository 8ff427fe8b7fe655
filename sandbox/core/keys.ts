/** RSA keys of the sandbox: merchant encryption pair, webhook signing pair, identity-provider signing pair. */
import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { replaceFile } from "./replace-file"

export type KeyPair = { privateKey: KeyObject; publicKey: KeyObject; publicPem: string; privatePem: string }
export type SandboxKeys = { merchant: KeyPair; webhook: KeyPair; idp: KeyPair }
export type FixedKeys = Partial<Record<keyof SandboxKeys, string>>

function fromPrivatePem(pem: string): KeyPair {
  const privateKey = createPrivateKey(pem)
  const publicKey = createPublicKey(privateKey)
  return {
    privateKey,
    publicKey,
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  }
}

function generate(): KeyPair {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  return fromPrivatePem(privateKey.export({ type: "pkcs8", format: "pem" }).toString())
}

/** Keys given as private PEMs are used; the others are generated now. */
export function loadKeys(fixed: FixedKeys = {}): SandboxKeys {
  return {
    merchant: fixed.merchant ? fromPrivatePem(fixed.merchant) : generate(),
    webhook: fixed.webhook ? fromPrivatePem(fixed.webhook) : generate(),
    idp: fixed.idp ? fromPrivatePem(fixed.idp) : generate(),
  }
}

/**
 * `--keys-dir`: keep keys across restarts so a store's .env stays valid. Missing files are created whole (a kill while
 * writing leaves no half key); one that is not a private key stops the start, named, and is left as it is.
 */
export function keysFromDir(dir: string): FixedKeys {
  fs.mkdirSync(dir, { recursive: true })
  const fixed: FixedKeys = {}
  for (const name of ["merchant", "webhook", "idp"] as const) {
    const file = path.join(dir, `${name}.private.pem`)
    if (!fs.existsSync(file)) replaceFile(file, generate().privatePem)
    const pem = fs.readFileSync(file, "utf8")
    try {
      createPrivateKey(pem)
    } catch {
      throw new Error(`${file} is not a private key in PEM: restore it, or remove it to make a new key (the store's PGS_* keys must then be written again)`)
    }
    fixed[name] = pem
  }
  return fixed
}
