/**
 * One spec object against one schema: every way the schema's reading departs from the table, as a sentence
 * "<field>: <how>". Rules kept in refinements (required for card transactions, PLN only) are probed on a valid
 * sample body: a field is required when the body without it fails, a value allowed when the body with it passes.
 */
import type { z } from "zod"
import type { FieldSpec } from "./spec-fields"
import { acceptsMissing, acceptsNull, fieldAt, lengthOf, namesInside, optionOf, shapeOf, valuesOf } from "./zod-reading"

export type Reading = {
  schema: z.ZodType
  /** A body the schema accepts (requests); without one, rules are read from the fields alone. */
  sample?: Record<string, unknown>
  /** Response objects: every listed field must be present even when the table has no Required column. */
  listedMeansPresent?: boolean
  /** The spec describes only part of the schema's object (one method of authorize, "other fields: not shown"). */
  partial?: boolean
}

/** The union option a sample's `type` picks (payment_method), so payment_method.data.* resolves. */
function chooser(sample: Record<string, unknown> | undefined, path: string) {
  return (union: z.ZodType) => {
    const owner = path.split(".").slice(0, -1)
    let value: any = sample
    for (const key of owner) value = value?.[key]
    const type = value?.type ?? (sample as any)?.payment_method?.type
    return typeof type === "string" ? optionOf(union, type) : undefined
  }
}

function edited(sample: Record<string, unknown>, path: string, value: unknown | typeof REMOVE): unknown {
  const copy = structuredClone(sample)
  const keys = path.split(".")
  let target: any = copy
  for (const key of keys.slice(0, -1)) target = target[key]
  if (value === REMOVE) delete target[keys.at(-1)!]
  else target[keys.at(-1)!] = value
  return copy
}
const REMOVE = Symbol("remove")

function refusedNaming(schema: z.ZodType, body: unknown, path: string): boolean {
  const result = schema.safeParse(body)
  return !result.success && result.error.issues.some((i) => i.path.join(".") === path)
}

/** Values a reading accepts beyond the spec's list, probing refinements on the sample. */
function accepts(reading: Reading, field: z.ZodType, path: string, value: string): boolean {
  if (!field.safeParse(value).success) return false
  return reading.sample ? reading.schema.safeParse(edited(reading.sample, path, value)).success : true
}

export function disagreements(specs: FieldSpec[], reading: Reading): string[] {
  const found: string[] = []
  const { schema, sample } = reading
  const say = (name: string, how: string) => found.push(`${name}: ${how}`)

  for (const spec of specs) {
    const field = fieldAt(schema, spec.name, chooser(sample, spec.name))
    if (!field) {
      say(spec.name, "missing")
      continue
    }
    const sampleHas = sample !== undefined && fieldAt(schema, spec.name.split(".")[0]) !== undefined

    // Required means: without it, the body is refused naming it (removing a cryptogram may refuse the ECI instead).
    const requiredBySchema = sampleHas ? refusedNaming(schema, edited(sample!, spec.name, REMOVE), spec.name) : !acceptsMissing(field)
    const mustBePresent = spec.required === true || spec.conditional === true || (reading.listedMeansPresent && spec.required === undefined)
    if (mustBePresent && !requiredBySchema) say(spec.name, "optional, the spec requires it")
    if (spec.required === false && requiredBySchema) say(spec.name, "required, the spec makes it optional")

    if (spec.nullable === true && !acceptsNull(field)) say(spec.name, "refuses null, the spec allows null")
    if (spec.nullable === false && reading.listedMeansPresent && acceptsNull(field)) say(spec.name, "allows null, the spec does not")

    if (spec.min !== undefined || spec.max !== undefined) {
      const length = lengthOf(field)
      if (!length) say(spec.name, `has no length checks, the spec says ${spec.min ?? ""}..${spec.max}`)
      else {
        if (spec.max !== undefined && length.max !== spec.max) say(spec.name, `max length ${length.max}, the spec says ${spec.max}`)
        if (spec.min !== undefined && length.min !== spec.min) say(spec.name, `min length ${length.min}, the spec says ${spec.min}`)
      }
    }
    if (spec.letters !== undefined) {
      const n = spec.letters
      if (!field.safeParse("A".repeat(n)).success || field.safeParse("A".repeat(n + 1)).success || field.safeParse("A".repeat(n - 1)).success)
        say(spec.name, `is not exactly ${n} letters`)
    }
    if (spec.digits !== undefined) {
      const n = spec.digits
      if (!field.safeParse("1".repeat(n)).success || field.safeParse("1".repeat(n + 1)).success || field.safeParse("a".repeat(n)).success)
        say(spec.name, `is not exactly ${n} digits`)
    }

    if (spec.values) {
      const options = valuesOf(field)
      for (const v of spec.values) if (!accepts(reading, field, spec.name, v)) say(spec.name, `refuses ${v}, which the spec lists`)
      // Beyond the list: the field's own extra options, or (for a plain string) an outsider, unless a rule refuses them.
      const candidates = options ? options.filter((o) => !spec.values!.includes(o)) : ["ZZZ"]
      for (const v of candidates) if (accepts(reading, field, spec.name, v)) say(spec.name, `accepts ${v}, which the spec does not list`)
    }

    if (spec.kind === "integer" && (!field.safeParse(1).success || field.safeParse(1.5).success || field.safeParse("1").success))
      say(spec.name, "is not an integer")
    if (spec.kind === "boolean" && (!field.safeParse(true).success || field.safeParse("true").success)) say(spec.name, "is not a boolean")

    for (const inner of spec.nested ?? []) {
      const known = inner.includes(".") ? fieldAt(field, inner) !== undefined : namesInside(field).has(inner)
      if (!known) say(`${spec.name}.${inner}`, "missing")
    }
  }

  if (reading.partial) return found
  const listed = new Set(specs.map((s) => s.name.split(".")[0]))
  for (const key of Object.keys(shapeOf(schema) ?? {})) if (!listed.has(key)) say(key, "not in the spec's table")
  return found
}
