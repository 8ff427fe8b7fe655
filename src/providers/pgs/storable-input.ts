/**
 * Storefront data Medusa hands a provider goes on into a jsonb column (the session's data): text PostgreSQL
 * cannot store (U+0000, an unpaired surrogate) there is a database error, a 500. Refused first, naming the field,
 * as INVALID_DATA (Medusa's route answers 400). Also refused: data nested deeper than any payment data is.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { checkJsonText, MAX_JSON_DEPTH } from "../../gateway/text"

export function refuseUnstorable(data: unknown, name = "data"): void {
  const check = checkJsonText(data)
  if (check.tooDeep) throw new MedusaError(MedusaError.Types.INVALID_DATA, `${name} is nested deeper than ${MAX_JSON_DEPTH} levels`)
  if (!check.problems.length) return
  const described = check.problems
    .slice(0, 10)
    .map(({ path, why, inFieldName }) => `${[name, ...path].join(".")} ${inFieldName ? `(a field name) ${why}` : why}`)
  throw new MedusaError(MedusaError.Types.INVALID_DATA, `Invalid PGS payment data: ${described.join("; ")}`)
}
