/**
 * A small runtime checker for what the first screen reads before it paints: route search params,
 * plugin region config, the auth answers, the feature flags and the device preferences (decision
 * 0003). Effect's Schema (with its AST, ~21 kB gzip) stays for every lazily loaded contract.
 *
 * A `Check<A>` is a Standard Schema V1 (synchronous), so TanStack Router's `validateSearch` takes it
 * as is. Failures carry a path and a message only: never the checked value.
 */

/** A failed check: where and why, never the value. */
export interface CheckIssue {
  readonly message: string
  readonly path: ReadonlyArray<PropertyKey>
}

export type CheckResult<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly issue: CheckIssue }

/** How a struct field treats a missing key: `absent` leaves it out, `default` supplies a value. */
type Missing = { readonly kind: "required" } | { readonly kind: "absent" } | { readonly kind: "default"; readonly value: () => unknown }

export interface Check<A> {
  /** Phantom: the checked type (`typeof X.Type`). */
  readonly Type: A
  readonly run: (input: unknown) => CheckResult<A>
  /** Used by `struct`: what a missing key means. */
  readonly missing: Missing
  readonly "~standard": {
    readonly version: 1
    readonly vendor: "wallet"
    readonly validate: (input: unknown) => { readonly value: A } | { readonly issues: ReadonlyArray<CheckIssue> }
    readonly types?: { readonly input: unknown; readonly output: A }
  }
}

/** A check whose key may be missing from a struct (it becomes `key?:`). */
export interface OptionalCheck<A> extends Check<A> {
  readonly optional: true
}

export type Infer<C> = C extends Check<infer A> ? A : never

const ok = <A>(value: A): CheckResult<A> => ({ ok: true, value })
const fail = (message: string, path: ReadonlyArray<PropertyKey> = []): CheckResult<never> => ({ ok: false, issue: { message, path } })

const make = <A>(run: (input: unknown) => CheckResult<A>, missing: Missing = { kind: "required" }): Check<A> => ({
  Type: undefined as unknown as A,
  run,
  missing,
  "~standard": {
    version: 1,
    vendor: "wallet",
    validate: (input) => {
      const result = run(input)
      return result.ok ? { value: result.value } : { issues: [result.issue] }
    },
  },
})

const typeCheck = <A>(expected: string, guard: (u: unknown) => u is A): Check<A> => make((u) => (guard(u) ? ok(u) : fail(`expected ${expected}`)))

export const string: Check<string> = typeCheck("a string", (u): u is string => typeof u === "string")
export const boolean: Check<boolean> = typeCheck("a boolean", (u): u is boolean => typeof u === "boolean")
export const finite: Check<number> = typeCheck("a finite number", (u): u is number => typeof u === "number" && Number.isFinite(u))
export const int: Check<number> = typeCheck("an integer", (u): u is number => Number.isSafeInteger(u))
export const unknown: Check<unknown> = make((u) => ok(u))

/** One of the given literal values. */
export const literals = <const L extends ReadonlyArray<string | number | boolean | null>>(values: L): Check<L[number]> =>
  make((u) => (values.includes(u as L[number]) ? ok(u as L[number]) : fail(`expected one of ${values.map((v) => JSON.stringify(v)).join(", ")}`)))

/** Narrows a check with a predicate. */
export const refine = <A>(check: Check<A>, predicate: (a: A) => boolean, message: string): Check<A> =>
  make((u) => {
    const result = check.run(u)
    return !result.ok || predicate(result.value) ? result : fail(message)
  }, check.missing)

/** Maps a checked value. */
export const map = <A, B>(check: Check<A>, f: (a: A) => B): Check<B> =>
  make((u) => {
    const result = check.run(u)
    return result.ok ? ok(f(result.value)) : result
  })

export const nullOr = <A>(check: Check<A>): Check<A | null> => make((u) => (u === null ? ok(null) : check.run(u)))

/** The first alternative that passes. */
export const union = <const C extends ReadonlyArray<Check<any>>>(checks: C): Check<Infer<C[number]>> =>
  make((u) => {
    let last: CheckResult<never> = fail("no alternative matched")
    for (const check of checks) {
      const result = check.run(u)
      if (result.ok) return result
      last = result as CheckResult<never>
    }
    return last
  })

export const array = <A>(item: Check<A>): Check<ReadonlyArray<A>> =>
  make((u) => {
    if (!Array.isArray(u)) return fail("expected an array")
    const out: Array<A> = []
    for (let i = 0; i < u.length; i++) {
      const result = item.run(u[i])
      if (!result.ok) return fail(result.issue.message, [i, ...result.issue.path])
      out.push(result.value)
    }
    return ok(out)
  })

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

export const record = <A>(value: Check<A>): Check<Readonly<Record<string, A>>> =>
  make((u) => {
    if (!isRecord(u)) return fail("expected an object")
    const out: Record<string, A> = {}
    for (const [key, v] of Object.entries(u)) {
      const result = value.run(v)
      if (!result.ok) return fail(result.issue.message, [key, ...result.issue.path])
      out[key] = result.value
    }
    return ok(out)
  })

/** A struct field whose key may be missing. */
export const optional = <A>(check: Check<A>): OptionalCheck<A> => ({ ...make(check.run, { kind: "absent" }), optional: true })

/** Lenient: a missing key or a failing value leaves the key out (never fails). */
export const dropInvalid = <A>(check: Check<A>): OptionalCheck<A> => ({
  ...make(
    (u) => {
      const result = check.run(u)
      return result.ok ? result : ({ ok: true, value: DROP } as unknown as CheckResult<A>)
    },
    { kind: "absent" },
  ),
  optional: true,
})

/** Lenient with a default: a missing key or a failing value becomes `fallback`. */
export const withFallback = <A>(check: Check<A>, fallback: A): Check<A> =>
  make(
    (u) => {
      const result = check.run(u)
      return result.ok ? result : ok(fallback)
    },
    { kind: "default", value: () => fallback },
  )

const DROP: unique symbol = Symbol("wallet/check/drop")

type Simplify<T> = { [K in keyof T]: T[K] } & {}
type OptionalKeys<F> = { [K in keyof F]: F[K] extends OptionalCheck<any> ? K : never }[keyof F]
type RequiredKeys<F> = Exclude<keyof F, OptionalKeys<F>>
export type StructType<F extends Record<string, Check<any>>> = Simplify<
  { readonly [K in RequiredKeys<F>]: Infer<F[K]> } & { readonly [K in OptionalKeys<F>]?: Infer<F[K]> }
>

/**
 * An object with the given fields; other keys are ignored and left out of the value, or refused
 * with `{ exact: true }` (region config: "unexpected key").
 */
export const struct = <const F extends Record<string, Check<any>>>(fields: F, options: { readonly exact?: boolean } = {}): Check<StructType<F>> =>
  make((u) => {
    if (!isRecord(u)) return fail("expected an object")
    if (options.exact) {
      for (const key of Object.keys(u)) if (!Object.hasOwn(fields, key)) return fail("unexpected key", [key])
    }
    const out: Record<string, unknown> = {}
    for (const [key, check] of Object.entries(fields)) {
      if (!Object.hasOwn(u, key) || u[key] === undefined) {
        if (check.missing.kind === "required") return fail("missing key", [key])
        if (check.missing.kind === "default") out[key] = check.missing.value()
        continue
      }
      const result = check.run(u[key])
      if (!result.ok) return fail(result.issue.message, [key, ...result.issue.path])
      if (result.value !== DROP) out[key] = result.value
    }
    return ok(out as StructType<F>)
  })

/** Checks or throws a `CheckError` (message and path, never the value). */
export const decodeSync = <A>(check: Check<A>, input: unknown): A => {
  const result = check.run(input)
  if (!result.ok) throw new CheckError(result.issue)
  return result.value
}

export class CheckError extends Error {
  readonly path: ReadonlyArray<PropertyKey>
  constructor(issue: CheckIssue) {
    super(issue.path.length > 0 ? `${issue.message} at ${issue.path.map(String).join(".")}` : issue.message)
    this.name = "CheckError"
    this.path = issue.path
  }
}

/** Whether a value is a kernel `Check` (rather than an Effect Schema). */
export const isCheck = (u: unknown): u is Check<unknown> =>
  typeof u === "object" && u !== null && (u as { "~standard"?: { vendor?: string } })["~standard"]?.vendor === "wallet"
