/** `text` cut to at most `max` characters, the cut marked with "…" (for words shown to a shop admin). */
export const shortened = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
