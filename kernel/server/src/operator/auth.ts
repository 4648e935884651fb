/**
 * Operator accounts and their sessions (decision 0370): scrypt-hashed passwords, a random session
 * token kept by the browser in an HttpOnly, SameSite=Strict cookie scoped to `/ops` (only its SHA-256
 * is stored), a CSRF token per session for every form, and a lockout after repeated failures per
 * name and per address. Nothing here is a user session: the app's bearer tokens never open `/ops`
 * and an operator cookie never reaches `/api`.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { Data, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ServerConfig } from "../services.ts"

/** scrypt cost (N=2^15, r=8, p=1: ~32 MiB, well under a second). */
const SCRYPT = { N: 32_768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const
const KEY_LENGTH = 32

export const OPERATOR_SESSION_TTL_MS = 8 * 60 * 60 * 1000
/** Failures counted per name and per address in this window. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000
export const MAX_FAILURES_PER_NAME = 5
export const MAX_FAILURES_PER_ADDRESS = 20
export const MIN_PASSWORD_LENGTH = 12

export class OperatorAuthError extends Data.TaggedError("OperatorAuthError")<{
  readonly reason: "invalid" | "locked"
  readonly message: string
}> {}

const derive = (password: string, salt: Buffer) =>
  Effect.callback<Buffer, never>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? resume(Effect.die(error)) : resume(Effect.succeed(key))))
  })

/** `scrypt$N$r$p$salt$key` (base64url). */
export const hashPassword = (password: string) =>
  Effect.gen(function* () {
    const salt = randomBytes(16)
    const key = yield* derive(password, salt)
    return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`
  })

/** `hashPassword` as a Promise (scripts and tests that set up an operator). */
export const hashPasswordNow = (password: string): Promise<string> => Effect.runPromise(hashPassword(password))

/** Compares in constant time; any malformed hash is a mismatch. */
export const verifyPassword = (password: string, stored: string) =>
  Effect.gen(function* () {
    const parts = stored.split("$")
    if (parts.length !== 6 || parts[0] !== "scrypt" || Number(parts[1]) !== SCRYPT.N) return false
    const expected = Buffer.from(parts[5]!, "base64url")
    const key = yield* derive(password, Buffer.from(parts[4]!, "base64url"))
    return key.length === expected.length && timingSafeEqual(key, expected)
  })

/** Spent on an unknown name so that timing does not tell names apart. */
let decoy: string | undefined
const decoyHash = Effect.suspend(() =>
  decoy ? Effect.succeed(decoy) : hashPassword(randomBytes(12).toString("hex")).pipe(Effect.tap((h) => Effect.sync(() => (decoy = h)))),
)

const NAME = /^[a-z][a-z0-9._-]{1,39}$/

/** Creates (or, with `replace`, re-keys) an operator account. */
export const addOperator = (name: string, password: string, options: { readonly replace?: boolean; readonly actor?: string } = {}) =>
  Effect.gen(function* () {
    if (!NAME.test(name)) return yield* Effect.fail(`operator names are 2-40 lower-case letters, digits, ".", "_" or "-"`)
    if (password.length < MIN_PASSWORD_LENGTH) return yield* Effect.fail(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`)
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const hash = yield* hashPassword(password)
    const existing = yield* sql<{ id: number }>`select id from operator_accounts where name = ${name}`
    if (existing[0] !== undefined && !options.replace) return yield* Effect.fail(`operator ${name} exists (use "passwd" to change the password)`)
    if (existing[0] !== undefined) {
      yield* sql`update operator_accounts set password_hash = ${hash} where id = ${existing[0].id}`
      yield* sql`delete from operator_sessions where operator_id = ${existing[0].id}`
    } else {
      yield* sql`insert into operator_accounts (name, password_hash, created_at) values (${name}, ${hash}, ${new Date(config.now())})`
    }
    yield* sql`insert into operator_audit (actor, action, target, before, after, at)
      values (${options.actor ?? "cli"}, ${existing[0] ? "operator.passwd" : "operator.add"}, ${`operator ${name}`}, null, null, ${new Date(config.now())})`
  })

export const tokenHash = (token: string): string => createHash("sha256").update(token).digest("hex")

export interface OperatorSession {
  readonly operatorId: number
  readonly name: string
  readonly csrf: string
}

const failuresSince = (key: string, since: Date) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ n: unknown }>`select count(*) as n from operator_login_failures where key = ${key} and at > ${since}`
    return Number(rows[0]?.n ?? 0)
  })

/** Checks the password (after the lockout) and opens a session; returns the cookie's token. */
export const login = (name: string, password: string, address: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const now = new Date(config.now())
    const since = new Date(now.getTime() - LOGIN_WINDOW_MS)
    const nameKey = `name:${name.slice(0, 64).toLowerCase()}`
    const addressKey = `address:${address}`
    if ((yield* failuresSince(nameKey, since)) >= MAX_FAILURES_PER_NAME || (yield* failuresSince(addressKey, since)) >= MAX_FAILURES_PER_ADDRESS) {
      return yield* new OperatorAuthError({ reason: "locked", message: "Too many failed sign-ins: try again in 15 minutes" })
    }
    const rows = yield* sql<{ id: number; password_hash: string }>`select id, password_hash from operator_accounts where name = ${name}`
    const account = rows[0]
    const ok = yield* verifyPassword(password, account?.password_hash ?? (yield* decoyHash))
    if (account === undefined || !ok) {
      yield* sql`insert into operator_login_failures (key, at) values (${nameKey}, ${now}), (${addressKey}, ${now})`
      yield* sql`delete from operator_login_failures where at < ${since}`
      return yield* new OperatorAuthError({ reason: "invalid", message: "Wrong name or password" })
    }
    yield* sql`delete from operator_login_failures where key = ${nameKey}`
    const token = randomBytes(32).toString("base64url")
    const csrf = randomBytes(24).toString("base64url")
    yield* sql`insert into operator_sessions (token_hash, operator_id, csrf, created_at, expires_at)
      values (${tokenHash(token)}, ${account.id}, ${csrf}, ${now}, ${new Date(now.getTime() + OPERATOR_SESSION_TTL_MS)})`
    yield* sql`delete from operator_sessions where expires_at < ${now}`
    return token
  })

/** The session of a cookie token, if live. */
export const sessionOf = (token: string | undefined) =>
  Effect.gen(function* () {
    if (!token) return undefined
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const rows = yield* sql<{ operator_id: number; name: string; csrf: string }>`
      select s.operator_id, a.name, s.csrf from operator_sessions s join operator_accounts a on a.id = s.operator_id
      where s.token_hash = ${tokenHash(token)} and s.expires_at > ${new Date(config.now())}`
    const row = rows[0]
    return row === undefined ? undefined : ({ operatorId: row.operator_id, name: row.name, csrf: row.csrf } satisfies OperatorSession)
  })

export const logout = (token: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`delete from operator_sessions where token_hash = ${tokenHash(token)}`
  })
