/**
 * A PGS session's fields as a test reads them from Medusa's API: through the plugin's own reader, since the fields
 * only the plugin reads (reference, terminal, amount…) travel inside `data.internal` (src/payments/stored-session-data.ts).
 */
import { sessionFields as readFields } from "../../src/payments/stored-session-data"

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const sessionFields = (data: unknown): Record<string, any> => readFields(data)
