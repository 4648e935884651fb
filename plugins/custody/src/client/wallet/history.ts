/** History grouping: rows by local calendar day, newest first (a stable sort by date). */
const pad = (n: number) => String(n).padStart(2, "0")

/** The local calendar day of a date, "2026-11-22". */
export const dayKey = (date: Date): string => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`

export function groupByDay<A>(items: ReadonlyArray<A>, dateOf: (item: A) => Date): ReadonlyArray<readonly [string, ReadonlyArray<A>]> {
  const groups = new Map<string, A[]>()
  const sorted = items.map((item, index) => ({ item, index, time: dateOf(item).getTime() })).sort((a, b) => b.time - a.time || a.index - b.index)
  for (const { item } of sorted) {
    const key = dayKey(dateOf(item))
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  return [...groups.entries()]
}
