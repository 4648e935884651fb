/**
 * The files of a new plugin package (decision 0150). Plain strings: the scaffold has no template
 * engine. `inRepo` picks the workspace shape (`@wallet/plugin-<id>`, tsconfig and tsup config from
 * tooling/) or the outside shape (`<scope>/wallet-plugin-<id>`, a self-contained tsup config and
 * tsconfig, peers on the published kernel ranges).
 */

export interface TemplateInput {
  readonly id: string
  readonly packageName: string
  readonly inRepo: boolean
  /** The route path of the plugin's one screen (`/<id>` unless a test asks for another). */
  readonly routePath: string
  /** Exact versions the repo pins (react, effect, @tanstack/react-router, tsup, typescript) and the kernel range. */
  readonly versions: Readonly<Record<"react" | "effect" | "router" | "query" | "tsup" | "typescript" | "vitest" | "kernel" | "testkit", string>>
}

/** `my-notes` → `myNotes`. */
export const camelOf = (id: string): string => id.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())
/** `my-notes` → `MyNotes`. */
export const pascalOf = (id: string): string => {
  const camel = camelOf(id)
  return camel.charAt(0).toUpperCase() + camel.slice(1)
}
/** The table-name prefix the kernel requires of a module's tables (`tablePrefix` in @wallet/kernel-server). */
export const tablePrefixOf = (id: string): string => `${id.replace(/[^a-z0-9]/gi, "_").toLowerCase()}_`

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

const ENTRIES = { ".": "index", "./manifest": "manifest", "./api": "api", "./server": "server/index" } as const

export const templates = (input: TemplateInput): Record<string, string> => {
  const { id, packageName, inRepo, routePath, versions } = input
  const camel = camelOf(id)
  const Pascal = pascalOf(id)
  const table = `${tablePrefixOf(id)}notes`
  const group = `${camel}Notes`
  const apiPath = `/api/${id}/notes`
  const kernelRange = inRepo ? "workspace:^" : versions.kernel

  const exportsMap = Object.fromEntries(
    Object.entries(ENTRIES).map(([subpath, file]) => [subpath, { source: `./src/${file}.ts`, types: `./dist/${file}.d.ts`, import: `./dist/${file}.js` }]),
  )
  const publishExports = Object.fromEntries(Object.entries(exportsMap).map(([subpath, { types, import: js }]) => [subpath, { types, import: js }]))
  const peers = {
    "@tanstack/react-query": `^${versions.query}`,
    "@tanstack/react-router": `^${versions.router}`,
    "@wallet/kernel": versions.kernel,
    "@wallet/kernel-react": versions.kernel,
    "@wallet/kernel-server": versions.kernel,
    effect: `^${versions.effect}`,
    react: `^${versions.react}`,
  }
  const devDependencies = inRepo
    ? {
        "@tanstack/react-query": versions.query,
        "@tanstack/react-router": versions.router,
        "@wallet/testkit": "workspace:^",
        "@wallet/kernel": kernelRange,
        "@wallet/kernel-react": kernelRange,
        "@wallet/kernel-server": kernelRange,
        effect: versions.effect,
        react: versions.react,
        tsup: versions.tsup,
      }
    : { "@wallet/testkit": versions.testkit, tsup: versions.tsup, typescript: versions.typescript, vitest: versions.vitest }

  const pkg = {
    name: packageName,
    version: "0.1.0",
    private: false,
    type: "module",
    license: "MIT",
    exports: exportsMap,
    files: ["dist", "README.md"],
    scripts: { build: "tsup" },
    publishConfig: { exports: publishExports },
    peerDependencies: peers,
    devDependencies,
    sideEffects: ["**/*.css"],
  }

  const tsupConfig = inRepo
    ? `import { defineConfig } from "tsup"
import { packageBuild } from "../../tooling/scripts/tsup-package.mjs"

export default defineConfig(packageBuild(import.meta.dirname))
`
    : `import { readFileSync } from "node:fs"
import { defineConfig } from "tsup"

// Self-contained (decision 0150): the entries are the \`source\` targets of package.json \`exports\`
// (./src/x.ts → dist/x.js + dist/x.d.ts); peers and dev dependencies stay external; JSON (the i18n
// bundles, imported lazily) becomes chunks. \`WALLET_PLUGIN_DTS=0\` skips the declarations.
const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8"))
const entry = Object.fromEntries(
  Object.values(pkg.exports).map((target) => [target.source.replace(/^\\.\\/src\\//, "").replace(/\\.tsx?$/, ""), target.source]),
)
const names = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]
const external = names.map((name) => new RegExp(\`^\${name.replace(/[.*+?^\${}()|[\\]\\\\/]/g, "\\\\$&")}(/.*)?$\`))

export default defineConfig({
  entry,
  outDir: "dist",
  format: ["esm"],
  target: "es2022",
  platform: "neutral",
  dts: process.env.WALLET_PLUGIN_DTS !== "0",
  splitting: true,
  treeshake: false,
  clean: true,
  external,
  loader: { ".json": "json" },
})
`

  const tsconfig = inRepo
    ? `{ "extends": "../../tooling/tsconfig/tsconfig.base.json", "include": ["src", "test"] }\n`
    : json({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "DOM", "DOM.Iterable"],
          module: "ESNext",
          moduleResolution: "Bundler",
          jsx: "react-jsx",
          strict: true,
          noUncheckedIndexedAccess: true,
          verbatimModuleSyntax: true,
          allowImportingTsExtensions: true,
          resolveJsonModule: true,
          isolatedModules: true,
          skipLibCheck: true,
          noEmit: true,
        },
        include: ["src", "test"],
      })

  const readme = `# ${packageName}

A wallet plugin made with \`npm run create-plugin -- ${id}\` (decision 0150): one screen at
\`${routePath}\` that lists the signed-in user's notes and adds one, an API contract with a GET and a
POST endpoint, a server handler over one migration (table \`${table}\`), and English and Russian
strings.

- \`./manifest\`: \`${camel}Plugin\` (the route, the config check, the \`${id}\` i18n namespace).
- \`./api\`: \`${Pascal}Api\` (\`GET ${apiPath}\`, \`POST ${apiPath}\`).
- \`./server\`: the server module (\`defineServerPlugin\`), its migration and handlers.

Enable it in a region file of the host (the package must be a dependency of \`@wallet/regions\`):

\`\`\`ts
"${packageName}": { enabled: true, config: { title: "My notes" } },
\`\`\`

\`npm run build\` (tsup) writes ESM and declarations to \`dist/\`; \`pnpm pack\` gives the tarball.
Tests: \`src/manifest.test.ts\` and \`src/server/server.test.ts\` (unit, PGlite), \`test/${id}.e2e.ts\`
(\`@wallet/testkit\`: the host's server and app, Chromium, the fake Telegram client and a demo user${
    inRepo
      ? "; the host is this repo"
      : "; the host is the folder `WALLET_HOST` names, with this package installed (`pnpm add <tarball> --filter @wallet/regions`) and enabled in its default region, else the test is skipped"
  }).
`

  const api = `/**
 * \`${packageName}/api\`: the plugin's HTTP contract. Browser-safe (only \`effect\` and
 * \`@wallet/kernel/api\`). Both endpoints need \`Authorization: Bearer <access token>\`.
 */
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { ApiId, authenticated, userText } from "@wallet/kernel/api"

export const Note = Schema.Struct({ id: Schema.Number, text: Schema.String })
export type Note = typeof Note.Type
export const Notes = Schema.Struct({ items: Schema.Array(Note) })
export type Notes = typeof Notes.Type
export const AddNote = Schema.Struct({ text: userText({ minLength: 1, maxLength: 200 }) })

export const ${Pascal}Group = authenticated(
  HttpApiGroup.make("${group}").add(
    HttpApiEndpoint.get("list", "${apiPath}", { success: Notes }),
    HttpApiEndpoint.post("add", "${apiPath}", { payload: AddNote, success: Note }),
  ),
)

export const ${Pascal}Api = HttpApi.make(ApiId).add(${Pascal}Group)
`

  const manifest = `import { Check, definePlugin } from "@wallet/kernel"

export const ${camel}Plugin = definePlugin({
  id: "${id}",
  version: "0.1.0",
  kernel: "^0.1.0",
  routes: [{ id: "index", parent: "root", path: "${routePath}", component: () => import("./client/Screen.tsx") }],
  config: Check.struct({ title: Check.optional(Check.string) }, { exact: true }),
  i18n: { namespace: "${id}", bundles: { en: () => import("./i18n/en.json"), ru: () => import("./i18n/ru.json") } },
})

export default ${camel}Plugin
`

  const index = `export { ${camel}Plugin } from "./manifest.ts"
export { ${Pascal}Api, ${Pascal}Group, type Note, type Notes } from "./api.ts"
`

  const config = `import type { Kernel } from "@wallet/kernel-react"

/** The plugin's region config, as the manifest's \`config\` check accepted it. */
export interface ${Pascal}Config {
  readonly title?: string
}

export const PLUGIN_ID = "${id}"

/** What screens read of the config (screens never import the manifest). */
export const configOf = (kernel: Kernel): ${Pascal}Config => (kernel.composition.pluginConfig.get(PLUGIN_ID) as ${Pascal}Config | undefined) ?? {}
`

  const client = `import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { ${Pascal}Api, type Note } from "../api.ts"

const client = clientPerKernel(makeApiClient(${Pascal}Api))

export const notesKey = ["${id}", "notes"] as const

export const loadNotes = async (kernel: Kernel): Promise<ReadonlyArray<Note>> => {
  const api = await client(kernel)
  return (await runEffect(kernel, api.${group}.list())).items
}

export const addNote = async (kernel: Kernel, text: string): Promise<Note> => {
  const api = await client(kernel)
  return runEffect(kernel, api.${group}.add({ payload: { text } }))
}
`

  const screen = `import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel, useT } from "@wallet/kernel-react"
import { Button, Cell, List, Placeholder, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { configOf } from "../config.ts"
import { addNote, loadNotes, notesKey } from "./client.ts"

/** ${routePath}: the signed-in user's notes from the server (loading, error, empty, list) and one button. */
export default function Screen() {
  const kernel = useKernel()
  const t = useT("${id}")
  const queries = useQueryClient()
  const notes = useQuery({ queryKey: notesKey, queryFn: () => loadNotes(kernel) })
  const add = useMutation({
    mutationFn: () => addNote(kernel, t("sample")),
    onSuccess: () => queries.invalidateQueries({ queryKey: notesKey }),
  })
  const title = configOf(kernel).title ?? t("title")
  return (
    <main style={{ padding: "16px 0" }}>
      <h1 style={{ margin: "8px 16px 16px", fontSize: 28 }}>{title}</h1>
      <List>
        {notes.status === "pending" ? (
          <Section>
            <SkeletonList rows={3} before={false} label={t("loading")} />
          </Section>
        ) : notes.status === "error" ? (
          <Placeholder
            kind="error"
            title={t("loadError")}
            action={
              <Button look="secondary" size="s" onClick={() => void notes.refetch()}>
                {t("retry")}
              </Button>
            }
          />
        ) : notes.data.length === 0 ? (
          <Placeholder kind="empty" title={t("empty")} />
        ) : (
          <Section>
            {notes.data.map((note) => (
              <Cell key={note.id} title={note.text} />
            ))}
          </Section>
        )}
      </List>
      <div style={{ padding: 16 }}>
        <Button look="primary" disabled={add.isPending} onClick={() => add.mutate()}>
          {t("add")}
        </Button>
        {add.isError ? <p role="alert">{t("addError")}</p> : null}
      </div>
    </main>
  )
}
`

  const server = `/**
 * \`${packageName}/server\`: the plugin's server module: one migration (table \`${table}\`) and the
 * handlers of \`${Pascal}Group\`.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { defineServerPlugin, ServerConfig, sqlStatements, type Migration, type ServerPlugin } from "@wallet/kernel-server"
import { ${Pascal}Api, ${Pascal}Group } from "../api.ts"

export const ${camel}Migrations: ReadonlyArray<Migration> = [
  {
    id: 1,
    name: "${id}: notes",
    up: sqlStatements(
      \`create table ${table} (
        id serial primary key,
        user_id bigint not null,
        text text not null,
        created_at timestamptz not null
      )\`,
      \`create index ${table}_user on ${table} (user_id, id)\`,
    ),
  },
]

const list = Effect.gen(function* () {
  const session = yield* CurrentSession
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: number; text: string }>\`select id, text from ${table} where user_id = \${session.userId} order by id\`
  return { items: rows.map((row) => ({ id: Number(row.id), text: row.text })) }
}).pipe(Effect.orDie)

const add = (text: string) =>
  Effect.gen(function* () {
    const session = yield* CurrentSession
    const sql = yield* SqlClient.SqlClient
    const config = yield* ServerConfig
    const [row] = yield* sql<{ id: number }>\`insert into ${table} (user_id, text, created_at) values (\${session.userId}, \${text}, \${new Date(config.now())}) returning id\`
    return { id: Number(row!.id), text }
  }).pipe(Effect.orDie)

const handlers = HttpApiBuilder.group(${Pascal}Api, "${group}", (group) => group.handle("list", () => list).handle("add", ({ payload }) => add(payload.text)))

export const serverPlugin: ServerPlugin = defineServerPlugin({ id: "${id}", migrations: ${camel}Migrations, groups: [${Pascal}Group], handlers })
export default serverPlugin
`

  const en = json({
    title: "Notes",
    loading: "Loading notes",
    loadError: "Could not load the notes",
    retry: "Retry",
    empty: "No notes yet",
    add: "Add a note",
    addError: "Could not add the note",
    sample: "My first note",
  })
  const ru = json({
    title: "Заметки",
    loading: "Загружаем заметки",
    loadError: "Не удалось загрузить заметки",
    retry: "Повторить",
    empty: "Заметок пока нет",
    add: "Добавить заметку",
    addError: "Не удалось добавить заметку",
    sample: "Моя первая заметка",
  })

  const manifestTest = `import { describe, expect, it } from "vitest"
import { bundleKeyDifferences, composePlugins, defineRegion } from "@wallet/kernel"
import en from "./i18n/en.json"
import ru from "./i18n/ru.json"
import { ${camel}Plugin } from "./manifest.ts"

const region = (config?: Record<string, unknown>) => defineRegion({ id: "test", plugins: { "${id}": { enabled: true, ...(config ? { config } : {}) } } })

describe("${id} manifest", () => {
  it("composes with its route and config", () => {
    const composed = composePlugins({ region: region({ title: "Mine" }), installed: [${camel}Plugin] })
    expect(composed.routes.map((route) => route.fullPath)).toEqual(["${routePath}"])
    expect(composed.pluginConfig.get("${id}")).toEqual({ title: "Mine" })
  })

  it("refuses unknown config keys", () => {
    expect(() => composePlugins({ region: region({ colour: "red" }), installed: [${camel}Plugin] })).toThrow("Invalid config for plugin '${id}'")
  })

  it("every string exists in English and Russian", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
  })
})
`

  const serverTest = `import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startServer, type RunningServer } from "@wallet/kernel-server"
import { bearer, call, startTestDatabase, tma, type TestDatabase } from "@wallet/kernel-server/testing"
import { serverPlugin } from "./index.ts"

const BOT_TOKEN = "1234567:${id}-test"

describe("${id} server on PGlite", () => {
  let database: TestDatabase
  let server: RunningServer

  beforeAll(async () => {
    database = await startTestDatabase("pglite")
    server = await startServer({ port: 0, database: database.options, botToken: BOT_TOKEN, plugins: [serverPlugin] })
  })

  afterAll(async () => {
    await server?.close()
    await database?.stop()
  })

  const signIn = async (id: number) => {
    const initData = signInitData({ user: { id, first_name: "Note", language_code: "en" }, authDate: new Date(), queryId: \`q\${id}\`, chatType: "sender" }, BOT_TOKEN)
    const reply = await call(server.url, "POST", "/api/auth/init", { authorization: tma(initData) })
    expect(reply.status).toBe(200)
    return bearer(reply.body.access_token as string)
  }

  it("adds a note and lists it, per user (the migration's table)", async () => {
    const alice = await signIn(8_100_000_001)
    const bob = await signIn(8_100_000_002)
    expect((await call(server.url, "GET", "${apiPath}", { authorization: alice })).body).toEqual({ items: [] })
    const added = await call(server.url, "POST", "${apiPath}", { authorization: alice, body: { text: "hello" } })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ text: "hello" })
    expect((await call(server.url, "GET", "${apiPath}", { authorization: alice })).body).toEqual({ items: [{ id: added.body.id, text: "hello" }] })
    expect((await call(server.url, "GET", "${apiPath}", { authorization: bob })).body).toEqual({ items: [] })
  })

  it("answers bad input with the API's JSON error shape and a 4xx", async () => {
    const alice = await signIn(8_100_000_003)
    const reply = await call(server.url, "POST", "${apiPath}", { authorization: alice, body: { text: "" } })
    expect(reply.status).toBe(400)
    expect(reply.body).toMatchObject({ _tag: expect.any(String), code: expect.any(String), message: expect.any(String) })
    expect((await call(server.url, "GET", "${apiPath}")).status).toBe(401)
  })
})
`

  const hostRoot = inRepo
    ? `// The host is this repo (the plugin is enabled in host/regions/default.ts).
const root: string | undefined = join(import.meta.dirname, "..", "..", "..")`
    : `// The host: a wallet host folder with this package installed and enabled in its default region.
const root: string | undefined = process.env.WALLET_HOST`

  const e2e = `${inRepo ? `import { join } from "node:path"\n` : ""}import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signInitData, startHost, type Host } from "@wallet/testkit"

${hostRoot}

// Chromium opens ${routePath} as a demo user inside the fake Telegram client and sees the server's answer.
describe.skipIf(root === undefined)("${id} in the browser", () => {
  let host: Host

  beforeAll(async () => {
    host = await startHost(root!)
  })

  afterAll(async () => {
    await host?.close()
  })

  it("shows the empty list from the server, adds a note and shows it", async () => {
    const app = await host.openAs("balances")
    await app.goto("${routePath}")
    await app.app().getByText("No notes yet").waitFor()
    await app.app().getByRole("button", { name: "Add a note" }).click()
    await app.app().getByText("My first note").waitFor()
    expect(await app.app().getByText("No notes yet").count()).toBe(0)
    await app.page.close()
  })

  it("answers its API for a signed demo user, and 401 without a session", async () => {
    const init = await fetch(\`\${host.server.url}/api/auth/init\`, { method: "POST", headers: { authorization: \`tma \${signInitData("no_custody", host.server.botToken)}\` } })
    expect(init.status).toBe(200)
    const { access_token } = (await init.json()) as { access_token: string }
    const notes = await fetch(\`\${host.server.url}${apiPath}\`, { headers: { authorization: \`Bearer \${access_token}\` } })
    expect(notes.status).toBe(200)
    expect(await notes.json()).toEqual({ items: [] })
    expect((await fetch(\`\${host.server.url}${apiPath}\`)).status).toBe(401)
  })
})
`

  return {
    "package.json": json(pkg),
    "tsconfig.json": tsconfig,
    "tsup.config.ts": tsupConfig,
    "README.md": readme,
    "src/index.ts": index,
    "src/api.ts": api,
    "src/manifest.ts": manifest,
    "src/config.ts": config,
    "src/client/client.ts": client,
    "src/client/Screen.tsx": screen,
    "src/server/index.ts": server,
    "src/i18n/en.json": en,
    "src/i18n/ru.json": ru,
    "src/manifest.test.ts": manifestTest,
    "src/server/server.test.ts": serverTest,
    [`test/${id}.e2e.ts`]: e2e,
  }
}
