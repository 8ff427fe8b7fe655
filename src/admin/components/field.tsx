import { Label, Text } from "@medusajs/ui"
import type { ReactNode } from "react"

/** A labelled form control with its error right under it (the server's per-field message). */
export function Field(props: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-y-1">
      <Label htmlFor={props.id} size="small" weight="plus">
        {props.label}
      </Label>
      {props.children}
      {props.hint && !props.error ? (
        <Text size="xsmall" className="text-ui-fg-subtle">
          {props.hint}
        </Text>
      ) : null}
      {props.error ? (
        <Text size="xsmall" className="text-ui-fg-error" role="alert" id={`${props.id}-error`}>
          {props.error}
        </Text>
      ) : null}
    </div>
  )
}
