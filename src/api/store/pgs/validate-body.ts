/**
 * Medusa's validateAndTransformBody typed for the zod our code uses. Medusa ships its own zod build
 * (@medusajs/deps/zod); passing our schemas straight in makes tsc compare the two zod type trees structurally,
 * which ran out of memory. At run time both are zod 4 and Medusa only calls parseAsync and reads `issues`.
 */
import { validateAndTransformBody } from "@medusajs/framework/http"
import type { z } from "zod"

type MedusaSchema = Parameters<typeof validateAndTransformBody>[0]

// The return type is spelled out: inferred, it names @types/express by a path that depends on where node_modules
// really lives (a symlinked node_modules made tsc refuse it, TS2742).
export const validateBody = (schema: z.ZodObject): ReturnType<typeof validateAndTransformBody> =>
  validateAndTransformBody(schema as unknown as MedusaSchema)
