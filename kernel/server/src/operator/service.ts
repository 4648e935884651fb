/**
 * What an operator may change, one service for the console pages and the command line (decision
 * 0370): feature flags and degradation banners (kernel_feature_flags for all, kernel_user_feature_flags
 * per user) and experiment buckets (operator_experiment_buckets for all, kernel_users.ab_tests per
 * user). Every change writes its audit entry (who, what, before, after, when) in the same transaction.
 * Precedence: a user's own value wins over the value for all.
 */
import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { bucketOf, EXPERIMENTS, isBucket, type Bucket } from "@wallet/kernel"
import { ServerConfig } from "../services.ts"

export class OperatorInputError extends Data.TaggedError("OperatorInputError")<{ readonly message: string }> {}

const KEY = /^[a-z][a-z0-9_-]{0,63}$/

const json = (value: unknown): Record<string, unknown> =>
  typeof value === "string" ? (JSON.parse(value) as Record<string, unknown>) : ((value ?? {}) as Record<string, unknown>)

/** An audit entry (who, what, before, after, when); run it in the change's transaction. */
export const audit = (actor: string, action: string, target: string, before: unknown, after: unknown) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    yield* sql`insert into operator_audit (actor, action, target, before, after, at)
      values (${actor}, ${action}, ${target}, ${JSON.stringify(before ?? null)}::jsonb, ${JSON.stringify(after ?? null)}::jsonb, ${new Date(config.now())})`
  })

const requireUser = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ ab_tests: unknown }>`select ab_tests from kernel_users where id = ${userId}`
    if (rows[0] === undefined) return yield* new OperatorInputError({ message: `no user ${userId}` })
    return json(rows[0].ab_tests) as Record<string, string>
  })

export interface FlagChange {
  readonly key: string
  /** null: drop the user's override (per user only). */
  readonly enabled: boolean | null
  readonly userId?: number | undefined
}

/** Sets a flag (or banner) for all or for one user, with its audit entry. */
export const setFlag = (change: FlagChange, actor: string) =>
  Effect.gen(function* () {
    if (!KEY.test(change.key)) return yield* new OperatorInputError({ message: `flag names are lower-case letters, digits, _ or - (got "${change.key}")` })
    const sql = yield* SqlClient.SqlClient
    const { key, enabled, userId } = change
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        if (userId === undefined) {
          if (enabled === null) return yield* new OperatorInputError({ message: "a flag for all is on or off" })
          const before = yield* sql<{ enabled: boolean }>`select enabled from kernel_feature_flags where name = ${key}`
          yield* sql`insert into kernel_feature_flags (name, enabled) values (${key}, ${enabled})
            on conflict (name) do update set enabled = excluded.enabled`
          yield* audit(actor, "flag.set", `flag ${key} for all`, before[0]?.enabled ?? null, enabled)
          return
        }
        yield* requireUser(userId)
        const before = yield* sql<{ enabled: boolean }>`select enabled from kernel_user_feature_flags where user_id = ${userId} and name = ${key}`
        if (enabled === null) yield* sql`delete from kernel_user_feature_flags where user_id = ${userId} and name = ${key}`
        else
          yield* sql`insert into kernel_user_feature_flags (user_id, name, enabled) values (${userId}, ${key}, ${enabled})
            on conflict (user_id, name) do update set enabled = excluded.enabled`
        yield* audit(actor, enabled === null ? "flag.clear" : "flag.set", `flag ${key} for user ${userId}`, before[0]?.enabled ?? null, enabled)
      }),
    )
  })

export interface BucketChange {
  readonly name: string
  /** null: drop the value (the user falls back to the bucket for all, then "a"). */
  readonly bucket: Bucket | null
  readonly userId?: number | undefined
}

/** Sets an experiment bucket for all or for one user, with its audit entry. */
export const setBucket = (change: BucketChange, actor: string) =>
  Effect.gen(function* () {
    const { name, bucket, userId } = change
    if (!KEY.test(name)) return yield* new OperatorInputError({ message: `experiment names are lower-case letters, digits, _ or - (got "${name}")` })
    if (bucket !== null && !isBucket(bucket)) return yield* new OperatorInputError({ message: `a bucket is a, b or c` })
    const declared = EXPERIMENTS.find((e) => e.name === name)
    if (bucket !== null && declared !== undefined && !declared.variants.includes(bucket)) {
      return yield* new OperatorInputError({ message: `${name} has the buckets ${declared.variants.join(", ")}` })
    }
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        if (userId === undefined) {
          const before = yield* sql<{ bucket: string }>`select bucket from operator_experiment_buckets where name = ${name}`
          if (bucket === null) yield* sql`delete from operator_experiment_buckets where name = ${name}`
          else
            yield* sql`insert into operator_experiment_buckets (name, bucket) values (${name}, ${bucket}) on conflict (name) do update set bucket = excluded.bucket`
          yield* audit(actor, bucket === null ? "bucket.clear" : "bucket.set", `experiment ${name} for all`, before[0]?.bucket ?? null, bucket)
          return
        }
        const current = yield* requireUser(userId)
        const next: Record<string, string> = { ...current }
        if (bucket === null) delete next[name]
        else next[name] = bucket
        yield* sql`update kernel_users set ab_tests = ${JSON.stringify(next)}::jsonb where id = ${userId}`
        yield* audit(actor, bucket === null ? "bucket.clear" : "bucket.set", `experiment ${name} for user ${userId}`, current[name] ?? null, bucket)
      }),
    )
  })

/** The buckets for all (operator_experiment_buckets). */
export const bucketsForAll = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string; bucket: string }>`select name, bucket from operator_experiment_buckets order by name`
  return Object.fromEntries(rows.map((row) => [row.name, row.bucket])) as Record<string, string>
})

/** A user's effective buckets: the buckets for all, overridden by the user's own. */
export const experimentBucketsFor = (userId: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ ab_tests: unknown }>`select ab_tests from kernel_users where id = ${userId}`
    const all = yield* bucketsForAll
    return { ...all, ...(json(rows[0]?.ab_tests) as Record<string, string>) }
  })

export interface Overview {
  readonly flags: ReadonlyArray<{ readonly name: string; readonly enabled: boolean; readonly description: string }>
  readonly bucketsForAll: Readonly<Record<string, string>>
  readonly user?: {
    readonly id: number
    readonly flags: Readonly<Record<string, boolean>>
    readonly buckets: Readonly<Record<string, string>>
    readonly effective: Readonly<Record<string, Bucket>>
  }
}

/** What the console shows: flags for all, buckets for all and, for a user, their overrides. */
export const overview = (userId?: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const flags = yield* sql<{ name: string; enabled: boolean; description: string }>`select name, enabled, description from kernel_feature_flags order by name`
    const all = yield* bucketsForAll
    if (userId === undefined) return { flags, bucketsForAll: all } satisfies Overview
    const own = yield* requireUser(userId)
    const overrides = yield* sql<{
      name: string
      enabled: boolean
    }>`select name, enabled from kernel_user_feature_flags where user_id = ${userId} order by name`
    const merged = { ...all, ...own }
    const effective = Object.fromEntries(EXPERIMENTS.map((e) => [e.name, bucketOf(merged, e.name)]))
    return {
      flags,
      bucketsForAll: all,
      user: { id: userId, flags: Object.fromEntries(overrides.map((o) => [o.name, o.enabled === true])), buckets: own, effective },
    } satisfies Overview
  })

export interface AuditEntry {
  readonly id: number
  readonly actor: string
  readonly action: string
  readonly target: string
  readonly before: unknown
  readonly after: unknown
  readonly at: Date
}

/** The newest audit entries first. */
export const auditLog = (limit = 100) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: unknown; actor: string; action: string; target: string; before: unknown; after: unknown; at: Date | string }>`
      select id, actor, action, target, before, after, at from operator_audit order by id desc limit ${limit}`
    return rows.map((row): AuditEntry => ({
      id: Number(row.id),
      actor: row.actor,
      action: row.action,
      target: row.target,
      before: row.before,
      after: row.after,
      at: new Date(row.at),
    }))
  })
