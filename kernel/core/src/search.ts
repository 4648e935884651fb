import * as Check from "./check.ts"

/**
 * Search params per the spec: "a value of the wrong type is dropped; enumerated params accept only
 * their list and an unknown value becomes the default". Never the router's error screen.
 * Built on the kernel's `Check` (not Effect Schema) so route tables cost little on the first screen.
 */

/** A route's search params: the given fields; unknown keys are left out. */
export const searchParams = <const F extends Record<string, Check.Check<any>>>(fields: F) => Check.struct(fields)

/** An optional param whose wrong-typed value is dropped. */
export const optionalParam = <A>(check: Check.Check<A>) => Check.dropInvalid(check)

/** An enumerated param: an unknown or missing value becomes `fallback`. */
export const enumParam = <const L extends ReadonlyArray<string>>(values: L, fallback: L[number]) => Check.withFallback(Check.literals(values), fallback)

/** An optional enumerated param without a default: an unknown value is dropped. */
export const optionalEnumParam = <const L extends ReadonlyArray<string>>(values: L) => optionalParam(Check.literals(values))

/** A string param; numbers that the router parsed from digits come back as their text. */
export const stringParam = optionalParam(Check.union([Check.string, Check.map(Check.finite, (n) => String(n))]))

const finiteFromString = Check.map(
  Check.refine(Check.string, (s) => s.trim() !== "" && Number.isFinite(Number(s)), "expected a numeric string"),
  Number,
)

/** A numeric param: a number, or a string holding one. */
export const numberParam = optionalParam(Check.union([Check.finite, finiteFromString]))

/** A boolean flag param given as `true` / 'true'. */
export const booleanParam = optionalParam(Check.union([Check.boolean, Check.map(Check.literals(["true", "false"]), (s) => s === "true")]))

/** Decodes raw search params with a lenient check; never throws for bad values of lenient fields. */
export const decodeSearch = <A>(check: Check.Check<A>, raw: unknown): A => Check.decodeSync(check, raw ?? {})

/** The Standard Schema form TanStack Router's `validateSearch` takes (a `Check` already is one). */
export const toSearchValidator = <A>(check: Check.Check<A>) => check
