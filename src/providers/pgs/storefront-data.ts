/**
 * Medusa saves a new session as `{...storefront data, ...provider data}`, and its JSON column update merges
 * nested objects as well. So the provider returns, next to its own data, a null for every key the storefront
 * sent that the provider did not issue itself, at any depth: nothing unchecked or secret survives the merge.
 */
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v)

export function blankUnissued(sent: Record<string, unknown>, ours: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...ours }
  for (const [key, value] of Object.entries(sent)) {
    if (!(key in ours)) out[key] = null
    else if (isPlainObject(value) && isPlainObject(ours[key])) out[key] = blankUnissued(value, ours[key] as Record<string, unknown>)
  }
  return out
}
