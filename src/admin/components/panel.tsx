/**
 * A titled part of the extension, as Medusa's own cards look: a Container that is a named region, so a screen
 * reader lists it by its title (aria-label on a plain div is ignored) and the accessibility tests can scope to it.
 */
import type { ReactNode } from "react"
import { Container } from "@medusajs/ui"

export function Panel({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Container className="divide-y p-0" role="region" aria-label={label}>
      {children}
    </Container>
  )
}
