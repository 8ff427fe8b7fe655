/** Gateway-shaped 422s raised by card code that has no request at hand (startCardTransaction is shared). */
import { ReplyError, validationReply } from "../core/http"

/** 422 naming `property` (dotted path), like core/http `invalid()`: params start with the field name. */
export function rejectField(property: string, message: string, params: string[] = []): ReplyError {
  const field = property.split(".").pop()!
  return new ReplyError(validationReply("POST", [{ property, message, params: [field, ...params] }]))
}
