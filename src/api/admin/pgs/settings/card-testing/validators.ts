import { z } from "zod"
import { LOCKDOWN_MODES } from "../../../../../payments/card-testing/lockdown"

/** The switch for a store under attack: on for a number of hours (at most a week), or off. */
export const cardTestingSwitchBody = z.strictObject({
  mode: z.enum([...LOCKDOWN_MODES, "off"], { error: 'must be "logged_in_only" or "off"' }),
  hours: z.number({ error: "must be a number of hours" }).positive({ error: "must be more than 0 hours" }).max(168, { error: "must be at most 168 hours (a week)" }).optional(),
}).refine((body) => body.mode === "off" || body.hours !== undefined, { path: ["hours"], error: "is required to switch it on (how many hours)" })
