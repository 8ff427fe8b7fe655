/** Bodies of /admin/pgs/settings/terminals. Every rule names its field, so the dashboard shows it next to it. */
import { z } from "zod"
import { unacceptableText } from "../../../../gateway/text"
import { isValidNotificationUrl, NOTIFICATION_URL_MAX } from "../../../../gateway/schemas/requests"
import { INTEGRATION_TYPES, TRANSACTION_TYPES } from "../../../../modules/pgs/models/terminal-setting"
import { CSS_VARIABLES, LOCALES, METHODS } from "./catalog"

const cssNames: ReadonlySet<string> = new Set(CSS_VARIABLES)

/** A CSS value that cannot close the declaration it is put in (no ; { } < > or quotes). */
const cssValue = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^;{}<>"'\\]*$/, "must not contain ; { } < > quotes or backslashes")

const cssVariables = z.record(z.string(), cssValue).superRefine((vars, ctx) => {
  for (const name of Object.keys(vars))
    if (!cssNames.has(name))
      ctx.addIssue({ code: "custom", path: [name], message: `is not an Embedded Fields CSS variable (one of ${CSS_VARIABLES.join(", ")})` })
})

const notificationUrl = z
  .string()
  .max(NOTIFICATION_URL_MAX)
  .refine(isValidNotificationUrl, `must start with https://, name a host and be at most ${NOTIFICATION_URL_MAX} characters`)

const hostedPageOptions = z.strictObject({
  skip_three_ds: z.boolean().optional(),
  cvv_less: z.boolean().optional(),
  number_of_instalments: z.int().min(1).max(6).optional(),
})

const methodSet: ReadonlySet<string> = new Set(METHODS)
const localeSet: ReadonlySet<string> = new Set(LOCALES)

/**
 * A method's name as a shopper reads it: 1–60 characters after trimming, no control characters (NUL included) and
 * no lone surrogate (PostgreSQL's jsonb refuses it), so nothing stored can break a page or the column.
 */
const methodName = z
  .string()
  .trim()
  .min(1)
  .max(60)
  .superRefine((v, ctx) => {
    const why = unacceptableText(v) ?? (/\p{Cc}/u.test(v) ? "must not contain control characters (line breaks, tabs and the like)" : null)
    if (why) ctx.addIssue({ code: "custom", message: why })
  })

/** { "pgs-wallets": { "sv-SE": "…" } }: known method identifiers and the four locales only. */
const methodNames = z.record(z.string(), z.record(z.string(), methodName)).superRefine((names, ctx) => {
  for (const [method, byLocale] of Object.entries(names)) {
    if (!methodSet.has(method)) ctx.addIssue({ code: "custom", path: [method], message: `is not a method identifier (one of ${METHODS.join(", ")})` })
    for (const locale of Object.keys(byLocale))
      if (!localeSet.has(locale)) ctx.addIssue({ code: "custom", path: [method, locale], message: `is not a locale (one of ${LOCALES.join(", ")})` })
  }
})

const fields = {
  terminal_id: z.string().trim().min(5).max(20),
  label: z.string().trim().max(100).nullable(),
  currency_codes: z.array(z.string().regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code, such as EUR").transform((c) => c.toLowerCase())).max(50),
  region_ids: z.array(z.string().regex(/^reg_[0-9A-Za-z]+$/, "must be a region id (reg_…)")).max(50),
  transaction_type: z.enum(TRANSACTION_TYPES),
  integration_type: z.enum(INTEGRATION_TYPES),
  notification_url: notificationUrl.nullable(),
  instalments: z.boolean(),
  locale: z.enum(LOCALES).nullable(),
  css_variables: cssVariables.nullable(),
  // null: every method. An empty list would leave shoppers with no way to pay.
  enabled_methods: z
    .array(z.enum(METHODS))
    .refine((methods) => methods.length > 0, "choose at least one method, or All methods: with none, shoppers have no way to pay")
    .nullable(),
  hosted_page_options: hostedPageOptions.nullable(),
  method_names: methodNames.nullable(),
  is_default: z.boolean(),
  capture_on_fulfillment: z.boolean(),
}

export const createTerminalBody = z.strictObject({
  ...fields,
  label: fields.label.optional(),
  currency_codes: fields.currency_codes.default([]),
  region_ids: fields.region_ids.default([]),
  transaction_type: fields.transaction_type.default("AUTHORIZE"),
  integration_type: fields.integration_type.default("EMBEDDED_FIELDS"),
  notification_url: fields.notification_url.optional(),
  instalments: fields.instalments.default(false),
  locale: fields.locale.optional(),
  css_variables: fields.css_variables.optional(),
  enabled_methods: fields.enabled_methods.optional(),
  hosted_page_options: fields.hosted_page_options.optional(),
  method_names: fields.method_names.optional(),
  is_default: fields.is_default.default(false),
  capture_on_fulfillment: fields.capture_on_fulfillment.default(false),
})
export type CreateTerminalBody = z.output<typeof createTerminalBody>

export const updateTerminalBody = z.strictObject(fields).partial()
export type UpdateTerminalBody = z.output<typeof updateTerminalBody>

/**
 * The spec honours a notification URL override only for Direct API transactions: refused for any other
 * integration instead of stored and silently ignored.
 */
export function notificationUrlProblem(setting: { notification_url?: string | null; integration_type?: string }) {
  if (!setting.notification_url || setting.integration_type === "DIRECT_API") return null
  return { field: "notification_url", message: "is honoured only for the Direct API integration: choose Direct API or leave it empty" }
}
