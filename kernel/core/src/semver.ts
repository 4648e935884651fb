/**
 * The kernel-range check of plugin manifests: npm-style ranges (`^0.1.0`, `~1.2`, `>=1.0.0 <2`,
 * `1.x`, `*`, `a || b`) over release versions. Small on purpose: it runs on the mini-app's first
 * screen. Pre-release versions match only ranges that name the same major.minor.patch.
 */
type Version = readonly [number, number, number, string | undefined]

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/
const PARTIAL = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?$/

export const parseVersion = (text: string): Version | undefined => {
  const m = VERSION.exec(text.trim())
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4]] : undefined
}

const compare = (a: Version, b: Version): number => {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) < (b[i] as number) ? -1 : 1
  if (a[3] === b[3]) return 0
  if (a[3] === undefined) return 1
  if (b[3] === undefined) return -1
  return a[3] < b[3] ? -1 : 1
}

type Comparator = { readonly op: "<" | "<=" | ">" | ">=" | "="; readonly version: Version }

const isWild = (part: string | undefined) => part === undefined || /^[xX*]$/.test(part)

/** Expands one range term into comparators (all must hold). */
const expand = (term: string): Comparator[] | undefined => {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(term)
  if (!m) return undefined
  const op = m[1] ?? ""
  const p = PARTIAL.exec(m[2]!)
  if (!p) return undefined
  const [maj, min, pat, pre] = [p[1], p[2], p[3], p[4]]
  if (isWild(maj)) return op === "<" || op === ">" ? [{ op: "<", version: [0, 0, 0, "0"] }] : []
  const M = Number(maj)
  const m2 = isWild(min) ? undefined : Number(min)
  const pp = isWild(pat) ? undefined : Number(pat)
  const low: Version = [M, m2 ?? 0, pp ?? 0, pre]
  const next = (v: Version): Version => [v[0], v[1], v[2], "0"]
  switch (op) {
    case "^": {
      const upper: Version =
        M > 0 || m2 === undefined ? [M + 1, 0, 0, "0"] : (m2 ?? 0) > 0 || pp === undefined ? [0, (m2 ?? 0) + 1, 0, "0"] : [0, 0, (pp ?? 0) + 1, "0"]
      return [
        { op: ">=", version: low },
        { op: "<", version: upper },
      ]
    }
    case "~":
      return [
        { op: ">=", version: low },
        { op: "<", version: m2 === undefined ? [M + 1, 0, 0, "0"] : [M, m2 + 1, 0, "0"] },
      ]
    case "":
    case "=":
      if (m2 === undefined)
        return [
          { op: ">=", version: low },
          { op: "<", version: [M + 1, 0, 0, "0"] },
        ]
      if (pp === undefined)
        return [
          { op: ">=", version: low },
          { op: "<", version: [M, m2 + 1, 0, "0"] },
        ]
      return [{ op: "=", version: low }]
    case ">":
      if (m2 === undefined) return [{ op: ">=", version: [M + 1, 0, 0, "0"] }]
      if (pp === undefined) return [{ op: ">=", version: [M, m2 + 1, 0, "0"] }]
      return [{ op: ">", version: low }]
    case "<=":
      if (m2 === undefined) return [{ op: "<", version: [M + 1, 0, 0, "0"] }]
      if (pp === undefined) return [{ op: "<", version: [M, m2 + 1, 0, "0"] }]
      return [{ op: "<=", version: low }]
    case "<":
      return [{ op: "<", version: pp === undefined || pre === undefined ? next(low) : low }]
    default:
      return [{ op: ">=", version: low }]
  }
}

const holds = (c: Comparator, v: Version) => {
  const r = compare(v, c.version)
  return c.op === "=" ? r === 0 : c.op === ">" ? r > 0 : c.op === ">=" ? r >= 0 : c.op === "<" ? r < 0 : r <= 0
}

/** Parses a range; undefined when it is not one. */
export const parseRange = (range: string): Comparator[][] | undefined => {
  const sets: Comparator[][] = []
  for (const alternative of range.split("||")) {
    const terms = alternative
      .trim()
      .replace(/(\^|~|>=|<=|>|<|=)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean)
    const set: Comparator[] = []
    for (const term of terms.length ? terms : ["*"]) {
      const comparators = expand(term)
      if (!comparators) return undefined
      set.push(...comparators)
    }
    sets.push(set)
  }
  return sets
}

export const satisfies = (version: string, range: string): boolean => {
  const v = parseVersion(version)
  const sets = parseRange(range)
  if (!v || !sets) return false
  return sets.some((set) => {
    if (!set.every((c) => holds(c, v))) return false
    // A pre-release only matches a set that names a pre-release of the same release.
    return v[3] === undefined || set.some((c) => c.version[3] !== undefined && c.version[3] !== "0" && c.version.slice(0, 3).every((n, i) => n === v[i]))
  })
}
