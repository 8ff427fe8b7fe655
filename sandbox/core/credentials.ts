/**
 * `--keys-dir` (and `--env-file`, which implies one): keep the merchant's credentials across restarts next to the
 * RSA keys, so a store's .env written once stays valid. Flags given on the command line win and are saved.
 */
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { replaceFile } from "./replace-file"

export type Credentials = { clientId: string; clientSecret: string; clientKey: string }

const FILE = "credentials.json"

function isCredentials(value: unknown): value is Credentials {
  const v = value as Partial<Credentials> | null
  return !!v && [v.clientId, v.clientSecret, v.clientKey].every((s) => typeof s === "string" && s.length > 0)
}

export function credentialsFromDir(dir: string, given: Partial<Credentials> = {}): Credentials {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, FILE)
  let saved: Credentials | undefined
  if (fs.existsSync(file)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8"))
    } catch (error) {
      throw new Error(`${file} is not valid JSON (${(error as Error).message}): restore it, or delete it to make new credentials (a store configured with the old ones must then take the new)`)
    }
    if (!isCredentials(parsed)) throw new Error(`${file} is not a sandbox credentials file: delete it to make new credentials`)
    saved = parsed
  }
  const credentials: Credentials = {
    clientId: given.clientId ?? saved?.clientId ?? "sandbox-merchant",
    clientSecret: given.clientSecret ?? saved?.clientSecret ?? `sbx_secret_${randomBytes(12).toString("hex")}`,
    clientKey: given.clientKey ?? saved?.clientKey ?? `sbx_ck_${randomBytes(8).toString("hex")}`,
  }
  if (JSON.stringify(credentials) !== JSON.stringify(saved)) {
    // Whole or not at all (it lives beside the state file): a kill mid-write leaves the old credentials.
    replaceFile(file, JSON.stringify(credentials, null, 2) + "\n")
  }
  return credentials
}
