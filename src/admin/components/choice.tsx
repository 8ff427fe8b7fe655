import { Select } from "@medusajs/ui"

/** A labelled single choice (the dashboard's Select); `none` adds an empty choice shown with that text. */
export function Choice(props: { id: string; label: string; value: string | null; options: readonly string[]; onChange(v: string | null): void; none?: string; names?: Record<string, string> }) {
  const NONE = "__none__"
  return (
    <Select value={props.value ?? NONE} onValueChange={(v) => props.onChange(v === NONE ? null : v)}>
      <Select.Trigger id={props.id} aria-label={props.label}>
        <Select.Value />
      </Select.Trigger>
      <Select.Content>
        {props.none ? <Select.Item value={NONE}>{props.none}</Select.Item> : null}
        {props.options.map((o) => (
          <Select.Item key={o} value={o}>
            {props.names?.[o] ?? o}
          </Select.Item>
        ))}
      </Select.Content>
    </Select>
  )
}
