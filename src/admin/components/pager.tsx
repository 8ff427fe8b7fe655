import { useState } from "react"
import { Button, Text } from "@medusajs/ui"

/**
 * Keyset pages (the lists answer `next_cursor`, never a total: counting years of rows would cost what the page saves).
 * `cursor` is the current page's; Previous goes back through the cursors seen.
 */
export function useCursorPages() {
  const [stack, setStack] = useState<string[]>([])
  return {
    cursor: stack[stack.length - 1] ?? null,
    page: stack.length + 1,
    next: (cursor: string) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => s.slice(0, -1)),
    reset: () => setStack([]),
  }
}

/** A list's footer: which page, and Previous / Next. */
export function Pager(props: { pages: ReturnType<typeof useCursorPages>; nextCursor: string | null | undefined; loading: boolean; noun: string }) {
  const { pages, nextCursor } = props
  return (
    <div className="flex items-center justify-between px-6 py-3">
      <Text size="small" className="text-ui-fg-subtle">{props.loading ? "Loading…" : `${props.noun}, page ${pages.page}`}</Text>
      <div className="flex gap-x-2">
        <Button size="small" variant="secondary" disabled={pages.page === 1} onClick={pages.previous}>Previous</Button>
        <Button size="small" variant="secondary" disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)}>Next</Button>
      </div>
    </div>
  )
}
