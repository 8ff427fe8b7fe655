/**
 * The gateway `reference` of a payment attempt (1..40 chars, unique per terminal).
 * It is the Medusa payment session id, so a webhook or status read leads back to the session
 * without a lookup table; from the second attempt on (amount/currency changed) `-N` keeps it unique.
 */

const MAX_REFERENCE_LENGTH = 40
// Medusa payment session ids: "payses_" + ULID (26 chars, Crockford base32).
const SESSION_ID = /^payses_[0-9A-Za-z]{10,30}$/
const REFERENCE = /^(payses_[0-9A-Za-z]{10,30})(?:-([2-9]|[1-9][0-9]{1,5}))?$/

export function gatewayReferenceFor(sessionId: string, attempt: number): string {
  if (!SESSION_ID.test(sessionId)) {
    throw new Error(`gatewayReferenceFor: "${sessionId}" is not a Medusa payment session id (payses_…)`)
  }
  if (!Number.isInteger(attempt) || attempt < 1 || attempt > 999_999) {
    throw new Error(`gatewayReferenceFor: attempt must be an integer from 1 to 999999, got ${attempt}`)
  }
  const reference = attempt === 1 ? sessionId : `${sessionId}-${attempt}`
  if (reference.length > MAX_REFERENCE_LENGTH) {
    throw new Error(`gatewayReferenceFor: reference "${reference}" is longer than ${MAX_REFERENCE_LENGTH} characters`)
  }
  return reference
}

/** The payment session id a reference was made from, or null when we did not make it. */
export function sessionIdFromReference(reference: string): string | null {
  if (reference.length > MAX_REFERENCE_LENGTH) return null
  const match = REFERENCE.exec(reference)
  return match ? match[1]! : null
}

/** The attempt number encoded in a reference we made (1 when there is no suffix), or null. */
export function attemptFromReference(reference: string): number | null {
  const match = REFERENCE.exec(reference)
  if (!match || reference.length > MAX_REFERENCE_LENGTH) return null
  return match[2] ? Number(match[2]) : 1
}
