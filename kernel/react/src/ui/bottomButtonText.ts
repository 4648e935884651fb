/** Spec: "Main and secondary bottom buttons cut their text to 64 characters". */
export const BOTTOM_BUTTON_TEXT_MAX = 64

type Segmenter = { segment(input: string): Iterable<{ segment: string }> }
type SegmenterCtor = new (locale?: string, options?: { granularity: "grapheme" }) => Segmenter

let segmenter: Segmenter | null | undefined
function graphemes(text: string): Iterable<string> {
  if (segmenter === undefined) {
    const Ctor = (Intl as unknown as { Segmenter?: SegmenterCtor }).Segmenter
    segmenter = Ctor ? new Ctor(undefined, { granularity: "grapheme" }) : null
  }
  if (!segmenter) return Array.from(text) // code points: never splits a surrogate pair
  const seg = segmenter
  return (function* () {
    for (const s of seg.segment(text)) yield s.segment
  })()
}

/**
 * Cuts `text` so that it is at most `max` UTF-16 code units long (what Telegram counts), without
 * splitting a surrogate pair or a grapheme cluster (an emoji with modifiers is kept whole or dropped).
 * With `ellipsis`, a cut text ends in "…" and still fits in `max`.
 */
export function cutBottomButtonText(text: string, options: { max?: number; ellipsis?: boolean } = {}): string {
  const max = options.max ?? BOTTOM_BUTTON_TEXT_MAX
  if (text.length <= max) return text
  const budget = options.ellipsis ? max - 1 : max
  let out = ""
  for (const g of graphemes(text)) {
    if (out.length + g.length > budget) break
    out += g
  }
  return options.ellipsis ? `${out.trimEnd()}…` : out
}
