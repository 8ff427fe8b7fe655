/**
 * What a zod schema says about a field, read from the schema itself: its place in the shape, optionality,
 * nullability, length checks, enum options, kind and the names inside it.
 */
import type { z } from "zod"

type Schema = z.ZodType
const def = (s: Schema) => (s as any)._zod.def

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "nonoptional", "readonly", "catch"])

/** The schema under optional/nullable/default wrappers (and the input side of a pipe). */
export function unwrap(s: Schema): Schema {
  let current = s
  for (;;) {
    const d = def(current)
    if (WRAPPERS.has(d.type)) current = d.innerType
    else if (d.type === "pipe") current = d.in
    else return current
  }
}

export const typeOf = (s: Schema): string => def(unwrap(s)).type

export function shapeOf(s: Schema): Record<string, Schema> | undefined {
  const inner = unwrap(s)
  return def(inner).type === "object" ? def(inner).shape : undefined
}

/** The option of a discriminated union whose `type` accepts `value`. */
export function optionOf(s: Schema, value: string): Schema | undefined {
  const inner = unwrap(s)
  if (def(inner).type !== "union") return undefined
  return (def(inner).options as Schema[]).find((o) => shapeOf(o)?.type?.safeParse(value).success)
}

/** The field at a dotted path; `choose` picks a union's option (payment_method → its `type`). */
export function fieldAt(s: Schema, path: string, choose?: (union: Schema) => Schema | undefined): Schema | undefined {
  let current: Schema | undefined = s
  for (const key of path.split(".")) {
    if (!current) return undefined
    if (typeOf(current) === "union" && choose) current = choose(current)
    current = current && shapeOf(current)?.[key]
  }
  return current
}

export const acceptsMissing = (s: Schema) => s.safeParse(undefined).success
export const acceptsNull = (s: Schema) => s.safeParse(null).success

/** Length checks of a string field (minLength/maxLength are null when absent). */
export function lengthOf(s: Schema): { min: number | null; max: number | null } | undefined {
  const inner = unwrap(s) as any
  if (def(inner).type !== "string") return undefined
  return { min: inner.minLength ?? null, max: inner.maxLength ?? null }
}

/** Allowed values of an enum, a literal or a union of them; undefined for anything else. */
export function valuesOf(s: Schema): string[] | undefined {
  const inner = unwrap(s)
  const d = def(inner)
  if (d.type === "enum") return Object.values(d.entries as Record<string, string>)
  if (d.type === "literal") return (d.values as unknown[]).map(String)
  if (d.type === "union") {
    const parts = (d.options as Schema[]).map(valuesOf)
    return parts.every(Boolean) ? parts.flat() as string[] : undefined
  }
  return undefined
}

/** Every key anywhere inside a schema (objects, unions, arrays, records, wrappers). */
export function namesInside(s: Schema, seen = new Set<string>()): Set<string> {
  const inner = unwrap(s)
  const d = def(inner)
  if (d.type === "object") {
    for (const [k, v] of Object.entries(d.shape as Record<string, Schema>)) {
      seen.add(k)
      namesInside(v, seen)
    }
  } else if (d.type === "union") for (const o of d.options as Schema[]) namesInside(o, seen)
  else if (d.type === "array") namesInside(d.element, seen)
  else if (d.type === "record") namesInside(d.valueType, seen)
  return seen
}
