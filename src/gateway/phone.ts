/** Phone numbers: E.164 with a possible-number check, the same rule the request schemas apply (schemas/common.ts). */
import { e164Phone } from "./schemas/common"

export const isPossibleE164 = (value: string): boolean => e164Phone.safeParse(value).success
