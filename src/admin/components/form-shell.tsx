import { Button, Heading, Text } from "@medusajs/ui"
import type { ReactNode } from "react"
import type { ApiError } from "../lib/api"

/**
 * A dashboard form: title, the server's error when it names no field (field errors show under their fields),
 * the fields, and Cancel / submit.
 */
export function FormShell(props: { label: string; title: string; error: ApiError | null; busy: boolean; submitText: string; onSubmit(): void; onCancel(): void; children: ReactNode }) {
  return (
    <form
      aria-label={props.label}
      className="flex flex-col gap-y-4 px-6 py-4"
      onSubmit={(e) => {
        e.preventDefault()
        props.onSubmit()
      }}
    >
      <Heading level="h3">{props.title}</Heading>
      {props.error && !props.error.fields.length ? (
        <Text className="text-ui-fg-error" role="alert">
          {props.error.message}
        </Text>
      ) : null}
      {props.children}
      <div className="flex justify-end gap-x-2">
        <Button type="button" variant="secondary" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" isLoading={props.busy}>
          {props.submitText}
        </Button>
      </div>
    </form>
  )
}
