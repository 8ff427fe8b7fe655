/**
 * Request validation for our admin routes with our zod, answering 400 with every problem named by field:
 * `{type: "invalid_data", message, errors: [{field, message}]}`. Medusa's validateAndTransformBody reports at most
 * three issues in one sentence and drops the field from custom ones; a dashboard form needs each field's error.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { z } from "zod"
import { toGatewayErrors } from "../../../gateway"
import { toProperty } from "../../../gateway/schemas/validation"

export type FieldError = { field: string; message: string }

export function invalidData(errors: FieldError[]) {
  return { type: "invalid_data", message: `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, errors }
}

export function validated(where: "body" | "query", schema: z.ZodType) {
  return (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const input = where === "body" ? req.body : req.query
    const parsed = schema.safeParse(input ?? {})
    if (!parsed.success) {
      const gatewayWords = toGatewayErrors(parsed.error, input)
      // One message per field (the first): a cross-field rule may repeat what a field's own rule already said.
      const byField = new Map<string, FieldError>()
      parsed.error.issues.forEach((issue, i) => {
        const field = toProperty(issue.path) || "body"
        if (!byField.has(field)) byField.set(field, { field, message: inAdminWords(issue, gatewayWords[i]!.message, input) })
      })
      res.status(400).json(invalidData([...byField.values()]))
      return
    }
    if (where === "body") req.validatedBody = parsed.data
    else req.validatedQuery = parsed.data as MedusaRequest["validatedQuery"]
    next()
  }
}

/**
 * The dashboard shows each message under its field, so lengths, bounds and missing values are said the way a form
 * says them ("Required", "At most 100 characters"); a rule's own message (a format, a list of choices) is kept.
 */
function inAdminWords(issue: z.core.$ZodIssue, fallback: string, input: unknown): string {
  const value = issue.path.reduce<any>((v, key) => (v == null ? undefined : v[key as any]), input)
  switch (issue.code) {
    case "invalid_type":
      return value === undefined || value === null ? "Required" : fallback
    case "too_small": {
      const min = Number(issue.minimum)
      if (issue.origin === "string") return min <= 1 ? "Required" : `At least ${min} characters`
      if (issue.origin === "array" || issue.origin === "set") return min <= 1 ? "Choose at least one" : `At least ${min} items`
      return `At least ${min}`
    }
    case "too_big": {
      const max = Number(issue.maximum)
      if (issue.origin === "string") return `At most ${max} characters`
      if (issue.origin === "array" || issue.origin === "set") return `At most ${max} items`
      return `At most ${max}`
    }
    default:
      return fallback
  }
}
