/**
 * Pure parts of the first-screen size suite (`tooling/bench/suites/app-size.ts`): which library a
 * bundled module belongs to, each library's share of the first screen and the budget verdict.
 */

/**
 * Budget of the bytes fetched before wallet main's first balance (the document, JS and CSS, gzip -9),
 * in kB of 1000 bytes as the browser counts them (docs/decisions/0003, 0009).
 */
export const FIRST_SCREEN_BUDGET_KB = 210

/** Effect's Schema family: decision 0003 keeps it off the first screen. */
const EFFECT_SCHEMA = /^effect\/dist\/(Schema[A-Za-z]*\.js|internal\/schema\/)/

/**
 * The library a module id belongs to: the npm package (`react-dom`, `@tanstack/query-core`),
 * `effect Schema` for effect's Schema modules, or the workspace folder (`kernel/core`, `plugins/home`).
 */
export const libraryOf = (id: string, root: string): string => {
  const clean = id.replace(/^\0/, "").replace(/\?.*$/, "")
  const inPackage = /node_modules\/(?!\.pnpm\/)((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(clean)
  if (inPackage) {
    const [, name, rest] = inPackage
    if (name === "effect" && EFFECT_SCHEMA.test(`effect/${rest}`)) return "effect Schema"
    return name!
  }
  const local = clean.startsWith(root + "/") ? clean.slice(root.length + 1) : clean
  const folder = /^(kernel\/[^/]+|plugins\/[^/]+|host\/[^/]+|tooling\/[^/]+)\//.exec(local)
  return folder ? folder[1]! : "other"
}

export interface Share {
  readonly library: string
  /** gzip bytes, scaled so the shares add up to the measured first-screen JS. */
  readonly bytes: number
  readonly modules: number
}

/**
 * Each library's share of `totalBytes`: the gzip size of its modules' code compressed together,
 * scaled so all shares add up to the measured total (gzip shares context inside a chunk).
 */
export const sharesOf = (
  modules: ReadonlyArray<{ readonly id: string; readonly code: string }>,
  root: string,
  totalBytes: number,
  gzipSize: (text: string) => number,
): ReadonlyArray<Share> => {
  const byLibrary = new Map<string, Array<string>>()
  for (const { id, code } of modules) {
    const library = libraryOf(id, root)
    byLibrary.set(library, [...(byLibrary.get(library) ?? []), code])
  }
  const raw = [...byLibrary].map(([library, codes]) => ({ library, size: gzipSize(codes.join("\n")), modules: codes.length }))
  const sum = raw.reduce((n, r) => n + r.size, 0)
  const scale = sum === 0 ? 0 : totalBytes / sum
  return raw.map((r) => ({ library: r.library, bytes: Math.round(r.size * scale), modules: r.modules })).sort((a, b) => b.bytes - a.bytes)
}

export interface Verdict {
  readonly ok: boolean
  readonly problems: ReadonlyArray<string>
}

/**
 * Over budget (`totalBytes`: everything fetched before the first balance), TON code in those bytes,
 * or Effect Schema on the boot path (entry and main route): each is a failure.
 */
export const verdictOf = (input: {
  readonly totalBytes: number
  readonly tonModules: number
  readonly schemaModules: number
  readonly budgetKb?: number
}): Verdict => {
  const budget = (input.budgetKb ?? FIRST_SCREEN_BUDGET_KB) * 1000
  const problems = [
    ...(input.totalBytes > budget
      ? [`${(input.totalBytes / 1000).toFixed(1)} kB before the first balance is over the ${(budget / 1000).toFixed(0)} kB budget`]
      : []),
    ...(input.tonModules > 0 ? [`${input.tonModules} TON library modules on the first screen`] : []),
    ...(input.schemaModules > 0 ? [`${input.schemaModules} Effect Schema modules on the first screen (decision 0003)`] : []),
  ]
  return { ok: problems.length === 0, problems }
}
