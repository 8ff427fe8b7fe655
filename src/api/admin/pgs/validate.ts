/**
 * Request validation for our admin routes with our zod, answering 400 with every problem named by field:
 * `{type: "invalid_data", message, errors: [{field, message}]}`. Medusa's validateAndTransformBody reports at most
 * three issues in one sentence and drops the field from custom ones; a dashboard form needs each field's error.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { z } from "zod"
import { toGatewayErrors } from "../../../gateway"

export type FieldError = { field: string; message: string }

export function invalidData(errors: FieldError[]) {
  return { type: "invalid_data", message: `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, errors }
}

export function validated(where: "body" | "query", schema: z.ZodType) {
  return (req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) => {
    const input = where === "body" ? req.body : req.query
    const parsed = schema.safeParse(input ?? {})
    if (!parsed.success) {
      // One message per field (the first): a cross-field rule may repeat what a field's own rule already said.
      const byField = new Map<string, FieldError>()
      for (const e of toGatewayErrors(parsed.error, input)) {
        const field = e.property || "body"
        if (!byField.has(field)) byField.set(field, { field, message: e.message })
      }
      res.status(400).json(invalidData([...byField.values()]))
      return
    }
    if (where === "body") req.validatedBody = parsed.data
    else req.validatedQuery = parsed.data as MedusaRequest["validatedQuery"]
    next()
  }
}
