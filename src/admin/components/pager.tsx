import { Button, Text } from "@medusajs/ui"

/** A list's footer: how many there are, and Previous / Next by `page` rows. */
export function Pager(props: { count: number | null; noun: string; offset: number; page: number; onOffset(offset: number): void }) {
  const { count, offset, page } = props
  return (
    <div className="flex items-center justify-between px-6 py-3">
      <Text size="small" className="text-ui-fg-subtle">{count === null ? "Loading…" : `${count} ${props.noun}`}</Text>
      <div className="flex gap-x-2">
        <Button size="small" variant="secondary" disabled={offset === 0} onClick={() => props.onOffset(Math.max(0, offset - page))}>Previous</Button>
        <Button size="small" variant="secondary" disabled={count === null || offset + page >= count} onClick={() => props.onOffset(offset + page)}>Next</Button>
      </div>
    </div>
  )
}
