/**
 * The en/ru key check every plugin's strings test runs in one line (decision 0130):
 * `expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })`.
 */

/** Every leaf key of a bundle as a dotted path ("send.address.error.invalid"), in file order. */
export const bundleKeys = (bundle: unknown, prefix = ""): ReadonlyArray<string> =>
  bundle !== null && typeof bundle === "object"
    ? Object.entries(bundle).flatMap(([key, value]) => bundleKeys(value, `${prefix}${key}.`))
    : prefix
      ? [prefix.slice(0, -1)]
      : []

/** A key without its i18next plural suffix: languages differ in plural forms (ru has _few and _many). */
const pluralBase = (key: string): string => key.replace(/_(zero|one|two|few|many|other)$/, "")

/**
 * The keys `other` lacks and the keys it has beyond `base` (plural forms folded), each sorted:
 * both empty when the two bundles carry the same strings.
 */
export const bundleKeyDifferences = (base: unknown, other: unknown): { readonly missing: ReadonlyArray<string>; readonly extra: ReadonlyArray<string> } => {
  const baseKeys = new Set(bundleKeys(base).map(pluralBase))
  const otherKeys = new Set(bundleKeys(other).map(pluralBase))
  return {
    missing: [...baseKeys].filter((key) => !otherKeys.has(key)).sort(),
    extra: [...otherKeys].filter((key) => !baseKeys.has(key)).sort(),
  }
}
