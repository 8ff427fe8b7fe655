/**
 * The stored shapes of released builds, for rolling upgrades (docs/production.md, "Rolling upgrades").
 *
 * During a rolling deploy the previous release reads what this build writes. Each release keeps, in
 * release/stored-shapes/<version>.json, the JSON Schema of what its reader accepts (the PGS session data Medusa
 * stores, flat, as parseSessionData reads it). `readerProblems(released, current)` names every way in which data
 * this build may write would be refused by that reader: a field it requires that may now be missing, a type or enum
 * value it does not know, a bound it enforces. integration-tests/contract/stored-shapes.spec.ts runs it.
 *
 * `npm run release:stored-shape` writes the current shape under the version being released (package.json's,
 * without a prerelease tail): as a draft during development, and a last time when the release is cut; a released
 * file is never rewritten, and the contract test holds a release to exactly its file.
 */
import fs from "node:fs"
import path from "node:path"
import { isDeepStrictEqual } from "node:util"
import { z } from "zod"
import { pgsSessionData } from "../src/payments/session-data"

export type JsonSchema = Record<string, any>

export const SHAPES_DIR = path.join(__dirname, "../release/stored-shapes")

/** What this build's reader accepts, which is also everything its writer may write. */
export function currentStoredShape(): JsonSchema {
  return z.toJSONSchema(pgsSessionData, { io: "input", unrepresentable: "any" }) as JsonSchema
}

/** The released shapes, oldest first: [{ version, shape }]. */
export function releasedShapes(dir = SHAPES_DIR): Array<{ version: string; shape: JsonSchema }> {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ version: f.slice(0, -".json".length), shape: JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as JsonSchema }))
    .sort((a, b) => compareVersions(a.version, b.version))
}

/**
 * A release's file must be exactly its reader's shape: a field added during development and missing from the draft
 * would let the next release change it unchecked. Before the cut (a prerelease version) the draft may lag.
 */
export function releasedShapeDrift(version: string, file: JsonSchema, current: JsonSchema): string[] {
  if (version.includes("-") || isDeepStrictEqual(file, current)) return []
  return [`release/stored-shapes/${version}.json is not ${version}'s stored shape: run npm run release:stored-shape before cutting ${version}`]
}

/** Semantic version order of "x.y.z" (numbers, not text: 0.9.0 comes before 0.10.0). */
export function compareVersions(a: string, b: string) {
  const pa = a.split(".").map(Number)
  const pb = b.split(".").map(Number)
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0)
  return 0
}

const typesOf = (s: JsonSchema): string[] | null => (s.type === undefined ? null : Array.isArray(s.type) ? s.type : [s.type])
/** The schema's alternatives (a `type: [a, null]` is split into one per type in readerProblems). */
const branchesOf = (s: JsonSchema): JsonSchema[] | null => s.anyOf ?? s.oneOf ?? null
const valuesOf = (s: JsonSchema): unknown[] | null => (s.const !== undefined ? [s.const] : s.enum ?? null)
const isAny = (s: JsonSchema | boolean | undefined) => s === true || (typeof s === "object" && Object.keys(s).filter((k) => k !== "$schema").length === 0)

/**
 * Every way in which a value `writer` admits would be refused by `reader`, with the path to it. Conservative: a
 * shape it cannot compare is reported, never passed.
 */
export function readerProblems(reader: JsonSchema, writer: JsonSchema, at = "data"): string[] {
  if (isAny(reader)) return []
  const unknown = Object.keys(reader).filter((k) => !COMPARED.has(k) && !(k === "propertyNames" && isStringKeys(reader.propertyNames)))
  if (unknown.length) return [`${at}: the released reader uses ${unknown.join(", ")}, which this check cannot compare; compare it by hand and teach scripts/stored-shapes.ts`]
  const writerBranches = branchesOf(writer)
  if (writerBranches) return writerBranches.flatMap((branch) => readerProblems(reader, { ...withoutBranches(writer), ...branch }, at))
  const writerTypes = typesOf(writer)
  if (writerTypes && writerTypes.length > 1) return writerTypes.flatMap((type) => readerProblems(reader, { ...writer, type }, at))
  const readerBranches = branchesOf(reader)
  if (readerBranches) {
    const tries = readerBranches.map((branch) => readerProblems({ ...withoutBranches(reader), ...branch }, writer, at))
    return tries.some((t) => t.length === 0) ? [] : [`${at}: no form the released reader knows takes it (${tries.map((t) => t[0]).join("; ")})`]
  }
  const problems: string[] = []
  const readerTypes = typesOf(reader)
  const type = writerTypes?.[0]
  if (readerTypes && (!type || !(readerTypes.includes(type) || (type === "integer" && readerTypes.includes("number")))))
    return [`${at}: the released reader takes only ${readerTypes.join(" or ")}, this build may write ${type ?? "anything"}`]
  const readerValues = valuesOf(reader)
  if (readerValues) {
    const written = valuesOf(writer)
    if (!written) problems.push(`${at}: the released reader takes only ${readerValues.map(String).join(", ")}, this build may write any value`)
    else for (const value of written) if (!readerValues.includes(value)) problems.push(`${at}: the released reader does not know the value ${JSON.stringify(value)}`)
  }
  for (const [bound, tighter] of [["minimum", (r: number, w: number) => w < r], ["maximum", (r: number, w: number) => w > r], ["minLength", (r: number, w: number) => w < r], ["maxLength", (r: number, w: number) => w > r]] as const) {
    if (reader[bound] === undefined) continue
    if (writer[bound] === undefined || tighter(reader[bound], writer[bound])) problems.push(`${at}: the released reader needs ${bound} ${reader[bound]}, this build allows ${writer[bound] ?? "any"}`)
  }
  if (reader.pattern !== undefined && writer.pattern !== reader.pattern) problems.push(`${at}: the released reader needs the pattern ${reader.pattern}`)
  if (type === "object") problems.push(...objectProblems(reader, writer, at))
  if (type === "array" && reader.items && !isAny(reader.items)) problems.push(...readerProblems(reader.items, writer.items ?? {}, `${at}[]`))
  return problems
}

/** The keywords readerProblems compares (or that never refuse a value: annotations). */
const COMPARED = new Set(["$schema", "type", "anyOf", "oneOf", "const", "enum", "minimum", "maximum", "minLength", "maxLength", "pattern", "properties", "required", "additionalProperties", "items", "description", "title", "default", "examples"])
/** `propertyNames: {type: "string"}` refuses nothing: every key of a JSON object is a string. */
const isStringKeys = (s: unknown) => typeof s === "object" && s !== null && Object.keys(s).length === 1 && (s as JsonSchema).type === "string"

const withoutBranches = ({ anyOf: _a, oneOf: _o, ...rest }: JsonSchema) => rest

function objectProblems(reader: JsonSchema, writer: JsonSchema, at: string): string[] {
  const problems: string[] = []
  const written = new Set<string>(writer.required ?? [])
  for (const key of reader.required ?? []) if (!written.has(key)) problems.push(`${at}.${key}: the released reader requires it, this build may leave it out`)
  const readerProps: Record<string, JsonSchema> = reader.properties ?? {}
  for (const [key, schema] of Object.entries<JsonSchema>(writer.properties ?? {})) {
    if (readerProps[key]) problems.push(...readerProblems(readerProps[key], schema, `${at}.${key}`))
    else if (reader.additionalProperties === false) problems.push(`${at}.${key}: the released reader refuses keys it does not know`)
    else if (reader.additionalProperties && !isAny(reader.additionalProperties)) problems.push(...readerProblems(reader.additionalProperties, schema, `${at}.${key}`))
  }
  // A record (css_variables): its values against the reader's.
  if (writer.additionalProperties && !isAny(writer.additionalProperties) && reader.additionalProperties && !isAny(reader.additionalProperties))
    problems.push(...readerProblems(reader.additionalProperties, writer.additionalProperties, `${at}.*`))
  if (isAny(writer.additionalProperties) && reader.additionalProperties === false) problems.push(`${at}: this build keeps keys it does not know, the released reader refuses them`)
  return problems
}

if (require.main === module) {
  const version = (JSON.parse(fs.readFileSync(path.join(__dirname, "../package.json"), "utf8")).version as string).replace(/-.*$/, "")
  const file = path.join(SHAPES_DIR, `${version}.json`)
  // On the way to a release (0.2.0-dev.0) the file is that release's draft, rewritten as the shape grows; once
  // released it is never rewritten (the contract test holds a release to its file).
  const released = !/-/.test(JSON.parse(fs.readFileSync(path.join(__dirname, "../package.json"), "utf8")).version)
  if (released && fs.existsSync(file)) {
    console.error(`release:stored-shape: ${path.relative(process.cwd(), file)} exists already: a released shape is never rewritten`)
    process.exit(1)
  }
  fs.mkdirSync(SHAPES_DIR, { recursive: true })
  fs.writeFileSync(file, JSON.stringify(currentStoredShape(), null, 2) + "\n")
  console.log(`release:stored-shape: wrote ${path.relative(process.cwd(), file)}`)
}
