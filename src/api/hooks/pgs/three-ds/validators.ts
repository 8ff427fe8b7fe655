/** The ACS's form post to our DIRECT_API notification URL override. */
import { z } from "zod"

export const notificationBody = z.object({ cres: z.string().min(1).max(10_000) })
export type NotificationBody = z.infer<typeof notificationBody>

export const notificationQuery = z.object({ session_id: z.string().regex(/^payses_[0-9A-Za-z]{10,30}$/, "must be a payment session id") })
