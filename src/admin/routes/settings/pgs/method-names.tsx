/**
 * The shopper-facing name of each enabled method, per locale: one row per method, one input per locale. An empty
 * input keeps the widget's own name for that locale; the storefront's `labels` option still wins over both.
 */
import { Input, Text } from "@medusajs/ui"

export type MethodNamesDraft = Record<string, Record<string, string>>

/** Only the shown methods' non-empty names are sent; null when none is left. */
export function methodNamesBody(names: MethodNamesDraft, shown: string[]) {
  const body: MethodNamesDraft = {}
  for (const m of shown) {
    const set = Object.entries(names[m] ?? {}).filter(([, v]) => v.trim() !== "")
    if (set.length) body[m] = Object.fromEntries(set)
  }
  return Object.keys(body).length ? body : null
}

export function MethodNames(props: {
  methods: string[]
  /** Each method's English name as shoppers see it (the catalog's). */
  labels: Record<string, string>
  locales: string[]
  names: MethodNamesDraft
  onChange(names: MethodNamesDraft): void
  err(field: string): string | undefined
}) {
  const set = (m: string, l: string, v: string) => props.onChange({ ...props.names, [m]: { ...props.names[m], [l]: v } })
  return (
    <fieldset className="flex flex-col gap-y-2">
      <legend className="txt-compact-small-plus">Method names shown to shoppers</legend>
      <Text size="xsmall" className="text-ui-fg-subtle">
        Up to 60 characters. Leave empty for the widget's own name in that language. The card name also names the card row; saved cards and the device wallet keep their own.
      </Text>
      <div className={props.methods.length ? "hidden grid-cols-5 gap-2 md:grid" : "hidden"} aria-hidden="true">
        <span />
        {props.locales.map((l) => (
          <Text key={l} size="xsmall" weight="plus">{l}</Text>
        ))}
      </div>
      {props.methods.map((m) => {
        // An error of the whole method (not of one locale) shows under its first input.
        const whole = props.locales.some((l) => props.err(`method_names.${m}.${l}`)) ? undefined : props.err(`method_names.${m}`)
        return (
          <div key={m} className="grid grid-cols-1 items-start gap-2 md:grid-cols-5" role="group" aria-label={`Names of ${m}`}>
            <Text size="small" className="pt-1.5">
              {props.labels[m] ?? m} <span className="font-mono text-ui-fg-muted">{m}</span>
            </Text>
            {props.locales.map((l) => {
              const id = `pgs-name-${m}-${l}`
              const error = props.err(`method_names.${m}.${l}`) ?? (l === props.locales[0] ? whole : undefined)
              return (
                <div key={l} className="flex flex-col gap-y-1">
                  {/* On a phone the header row is hidden: each input says its locale. */}
                  <span className="txt-compact-xsmall text-ui-fg-subtle md:hidden" aria-hidden="true">{l}</span>
                  <Input
                    id={id}
                    size="small"
                    aria-label={`${m} in ${l}`}
                    placeholder={l}
                    maxLength={120}
                    value={props.names[m]?.[l] ?? ""}
                    onChange={(e) => set(m, l, e.target.value)}
                    aria-invalid={!!error}
                  />
                  {error ? <Text size="xsmall" className="text-ui-fg-error" role="alert">{error}</Text> : null}
                </div>
              )
            })}
          </div>
        )
      })}
    </fieldset>
  )
}
