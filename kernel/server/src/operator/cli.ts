/**
 * `npm run operator -- <command>` (decision 0370): operator accounts, flags, banners and experiment
 * buckets from the command line, through the same service as the `/ops` pages (and so with the
 * same audit log; the actor is `cli:<login>`).
 *
 *   add <name>                                   create an operator (password: OPERATOR_PASSWORD or a prompt)
 *   passwd <name>                                set a new password (signs the operator out everywhere)
 *   flags set <key> <on|off|clear> [--user <id>]
 *   banners set <is_ton_space_enabled|is_p2p_enabled> <on|off|clear> [--user <id>]
 *   buckets set <experiment> <a|b|c|clear> [--user <id>]
 *   list [--user <id>]                           flags, banners and buckets (with the user's own)
 *   audit [--limit <n>]                          the newest audit entries
 *
 * Database: DATABASE_URL (PostgreSQL), else the embedded one in `.data/pglite` (`--data-dir`). The
 * embedded database has one process at a time: while `npm start` runs on it, pass `--server <url>`
 * (with OPERATOR_NAME and OPERATOR_PASSWORD) and the command signs in to `/ops` and submits its form.
 */
import { userInfo } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { createInterface } from "node:readline"
import { Effect, Layer, Redacted } from "effect"
import { DEGRADATION_FLAGS, isBucket } from "@wallet/kernel"
import * as Db from "../db/Db.ts"
import { runMigrations } from "../db/migrations.ts"
import { composeServerModules } from "../compose.ts"
import { defaultTtls, ServerConfig } from "../services.ts"
import { addOperator, MIN_PASSWORD_LENGTH } from "./auth.ts"
import { auditLog, overview, setBucket, setFlag } from "./service.ts"

const USAGE = `usage: npm run operator -- <command>
  add <name> | passwd <name>
  flags set <key> <on|off|clear> [--user <id>]
  banners set <${DEGRADATION_FLAGS.join("|")}> <on|off|clear> [--user <id>]
  buckets set <experiment> <a|b|c|clear> [--user <id>]
  list [--user <id>] | audit [--limit <n>]
options: --data-dir <dir> (embedded database), --server <url> (a running API server, with OPERATOR_NAME / OPERATOR_PASSWORD)`

class UsageError extends Error {}

interface Parsed {
  readonly words: ReadonlyArray<string>
  readonly options: Readonly<Record<string, string>>
}

export const parseArgs = (argv: ReadonlyArray<string>): Parsed => {
  const words: Array<string> = []
  const options: Record<string, string> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg.startsWith("--")) {
      const value = argv[i + 1]
      if (value === undefined) throw new UsageError(`${arg} needs a value`)
      options[arg.slice(2)] = value
      i++
    } else words.push(arg)
  }
  return { words, options }
}

const userOption = (options: Parsed["options"]): number | undefined => {
  const raw = options.user
  if (raw === undefined) return undefined
  if (!/^\d{1,15}$/.test(raw)) throw new UsageError("--user is a user id (a number)")
  return Number(raw)
}

const onOff = (value: string | undefined): boolean | null => {
  if (value === "on") return true
  if (value === "off") return false
  if (value === "clear") return null
  throw new UsageError("the value is on, off or clear")
}

/** A change as the `/ops` form would post it. */
export type FormChange = { readonly path: "/ops/flags" | "/ops/buckets"; readonly fields: Record<string, string> }

export const changeOf = (parsed: Parsed): FormChange | undefined => {
  const [area, verb, key, value] = parsed.words
  if (area !== "flags" && area !== "banners" && area !== "buckets") return undefined
  if (verb !== "set" || key === undefined || value === undefined) throw new UsageError(USAGE)
  const user = userOption(parsed.options)
  const userField: Record<string, string> = user === undefined ? {} : { user: String(user) }
  if (area === "buckets") {
    if (value !== "clear" && !isBucket(value)) throw new UsageError("the bucket is a, b, c or clear")
    return { path: "/ops/buckets", fields: { name: key, bucket: value, ...userField } }
  }
  if (area === "banners" && !(DEGRADATION_FLAGS as ReadonlyArray<string>).includes(key)) throw new UsageError(`banners are ${DEGRADATION_FLAGS.join(", ")}`)
  onOff(value)
  return { path: "/ops/flags", fields: { key, value, ...userField } }
}

const askPassword = async (): Promise<string> => {
  if (process.env.OPERATOR_PASSWORD) return process.env.OPERATOR_PASSWORD
  if (!process.stdin.isTTY) throw new UsageError("set OPERATOR_PASSWORD (no terminal to ask on)")
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true })
  const muted = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WriteStream }
  process.stdout.write("Password: ")
  muted._writeToOutput = () => undefined
  const answer = await new Promise<string>((resolve) => rl.question("", resolve))
  rl.close()
  process.stdout.write("\n")
  return answer
}

/** Through a running server's `/ops`: sign in, read the CSRF token, post the form. */
const viaServer = async (server: string, change: FormChange) => {
  const name = process.env.OPERATOR_NAME
  const password = process.env.OPERATOR_PASSWORD
  if (!name || !password) throw new UsageError("--server needs OPERATOR_NAME and OPERATOR_PASSWORD")
  const base = server.replace(/\/+$/, "")
  const form = { "content-type": "application/x-www-form-urlencoded" }
  const signIn = await fetch(`${base}/ops/login`, { method: "POST", redirect: "manual", headers: form, body: new URLSearchParams({ name, password }) })
  const cookie = signIn.headers.get("set-cookie")?.split(";")[0]
  if (signIn.status !== 303 || !cookie) throw new Error(`sign-in refused (${signIn.status})`)
  const page = await (await fetch(`${base}/ops`, { headers: { cookie } })).text()
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1]
  if (!csrf) throw new Error("no form token on /ops")
  const reply = await fetch(`${base}${change.path}`, {
    method: "POST",
    redirect: "manual",
    headers: { ...form, cookie },
    body: new URLSearchParams({ ...change.fields, csrf }),
  })
  if (reply.status !== 303) throw new Error(`refused (${reply.status}): ${/role="alert">([^<]*)</.exec(await reply.text())?.[1] ?? ""}`)
  return decodeURIComponent(new URL(reply.headers.get("location") ?? "/", base).searchParams.get("done") ?? "done")
}

const databaseLayer = (options: Parsed["options"]) => {
  const database: Db.DatabaseOptions = process.env.DATABASE_URL
    ? { kind: "postgres", url: process.env.DATABASE_URL }
    : { kind: "pglite", dataDir: options["data-dir"] ?? join(process.cwd(), ".data", "pglite") }
  const config = Layer.succeed(ServerConfig, {
    botToken: Redacted.make(""),
    botUsername: "",
    region: "default",
    dev: false,
    ...defaultTtls,
    now: () => Date.now(),
    pluginConfig: {},
  })
  return Layer.merge(Db.layer(database), config)
}

const direct = (parsed: Parsed, actor: string) =>
  Effect.gen(function* () {
    yield* runMigrations(composeServerModules([], { dev: false }))
    const [command, name] = parsed.words
    const change = changeOf(parsed)
    if (change?.path === "/ops/flags") {
      const { key, value, user } = change.fields
      yield* setFlag({ key: key!, enabled: onOff(value), userId: user === undefined ? undefined : Number(user) }, actor)
      return `${key} ${value}${user ? ` for user ${user}` : " for all"}`
    }
    if (change?.path === "/ops/buckets") {
      const { name: experiment, bucket, user } = change.fields
      yield* setBucket(
        { name: experiment!, bucket: bucket === "clear" ? null : (bucket as "a" | "b" | "c"), userId: user === undefined ? undefined : Number(user) },
        actor,
      )
      return `${experiment} ${bucket}${user ? ` for user ${user}` : " for all"}`
    }
    if (command === "add" || command === "passwd") {
      if (!name) throw new UsageError(USAGE)
      const password = yield* Effect.promise(askPassword)
      if (password.length < MIN_PASSWORD_LENGTH) throw new UsageError(`the password needs at least ${MIN_PASSWORD_LENGTH} characters`)
      yield* addOperator(name, password, { replace: command === "passwd", actor })
      return command === "add" ? `operator ${name} added: sign in at /ops` : `password of ${name} changed`
    }
    if (command === "list") {
      const o = yield* overview(userOption(parsed.options))
      const lines = o.flags.map(
        (f) => `${f.name.padEnd(24)} ${f.enabled ? "on " : "off"}${o.user && f.name in o.user.flags ? `  user: ${o.user.flags[f.name] ? "on" : "off"}` : ""}`,
      )
      lines.push("", ...Object.entries(o.user?.effective ?? o.bucketsForAll).map(([k, v]) => `${k.padEnd(24)} ${v}`))
      return lines.join("\n")
    }
    if (command === "audit") {
      const entries = yield* auditLog(Number(parsed.options.limit ?? 50))
      return (
        entries
          .map((e) => `${e.at.toISOString()}  ${e.actor}  ${e.action}: ${e.target}  ${JSON.stringify(e.before)} -> ${JSON.stringify(e.after)}`)
          .join("\n") || "no entries"
      )
    }
    throw new UsageError(USAGE)
  })

export const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  try {
    const parsed = parseArgs(argv)
    if (parsed.words.length === 0) throw new UsageError(USAGE)
    const server = parsed.options.server ?? process.env.OPERATOR_SERVER
    const change = changeOf(parsed)
    if (server && change) {
      console.log(await viaServer(server, change))
      return 0
    }
    const actor = `cli:${userInfo().username}`
    const out = await Effect.runPromise(Effect.scoped(direct(parsed, actor).pipe(Effect.provide(databaseLayer(parsed.options)))))
    console.log(out)
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    console.error(/could not lock/.test(message) ? `${message}: the API server holds the embedded database; pass --server http://127.0.0.1:8090` : message)
    return error instanceof UsageError ? 2 : 1
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  void main(process.argv.slice(2)).then((code) => process.exit(code))
