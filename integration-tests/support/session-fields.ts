/**
 * A PGS session's fields as a test reads them from Medusa's API: through the plugin's own reader, since the fields
 * only the plugin reads (reference, terminal, amount…) travel inside `data.internal` (src/payments/stored-session-data.ts).
 * Strict: data without `internal` (not a session's, or an earlier version's) fails the test instead of reading as undefined.
 */
import { INTERNAL_KEY, readStoredSessionData } from "../../src/payments/stored-session-data"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function sessionFields(data: unknown): Record<string, any> {
  if (typeof (data as Record<string, unknown> | null)?.[INTERNAL_KEY] !== "string") throw new Error(`not a PGS session's stored data: ${JSON.stringify(data)?.slice(0, 200)}`)
  return readStoredSessionData(data)
}
