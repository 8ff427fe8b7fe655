/**
 * `--keys-dir` (and `--env-file`, which implies one): keep the merchant's credentials across restarts next to the
 * RSA keys, so a store's .env written once stays valid. Flags given on the command line win and are saved.
 */
import { randomBytes } from "node:crypto"
import fs from "node:fs"
import path from "node:path"

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
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"))
    if (!isCredentials(parsed)) throw new Error(`${file} is not a sandbox credentials file: delete it to make new credentials`)
    saved = parsed
  }
  const credentials: Credentials = {
    clientId: given.clientId ?? saved?.clientId ?? "sandbox-merchant",
    clientSecret: given.clientSecret ?? saved?.clientSecret ?? `sbx_secret_${randomBytes(12).toString("hex")}`,
    clientKey: given.clientKey ?? saved?.clientKey ?? `sbx_ck_${randomBytes(8).toString("hex")}`,
  }
  if (JSON.stringify(credentials) !== JSON.stringify(saved)) {
    fs.writeFileSync(file, JSON.stringify(credentials, null, 2) + "\n", { mode: 0o600 })
  }
  return credentials
}
