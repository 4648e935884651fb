/**
 * Effect Schema as a kernel `Check`, for code that is loaded lazily (a plugin's persisted store,
 * a lazily loaded route's search): `@wallet/kernel/schema`. Importing it loads effect's Schema
 * module, so nothing on the first screen may (decision 0003).
 */
import { Exit, Schema } from "effect"
import type { Check, CheckResult } from "./check.ts"
import type { StoreCheck } from "./storage.ts"

/** Decodes with `schema` (an issue carries a short message, never the value) and encodes back with it. */
export const schemaCheck = <A>(schema: Schema.Codec<A, any, never, never>): StoreCheck<A> => {
  const decode = Schema.decodeUnknownExit(schema)
  const encode = Schema.encodeSync(schema)
  const run = (input: unknown): CheckResult<A> => {
    const exit = decode(input)
    return Exit.isSuccess(exit) ? { ok: true, value: exit.value } : { ok: false, issue: { message: "does not match its schema", path: [] } }
  }
  const check: Check<A> = {
    Type: undefined as unknown as A,
    run,
    missing: { kind: "required" },
    "~standard": {
      version: 1,
      vendor: "wallet",
      validate: (input) => {
        const result = run(input)
        return result.ok ? { value: result.value } : { issues: [result.issue] }
      },
    },
  }
  return { ...check, encode: (value: A) => encode(value) }
}
