import { randomBytes, randomUUID } from "node:crypto"

/** Gateway-looking identifiers; the prefix says what kind of object an id names when you read logs. */
export const newId = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`
export const newUuid = () => randomUUID()
export const nowIso = () => new Date().toISOString()
export const digits = (n: number) => Array.from(randomBytes(n), (b) => String(b % 10)).join("")
