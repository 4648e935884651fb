/**
 * `npm run create-plugin -- <id> [--dir <folder>] [--scope @acme] [--path /route]` (decision 0150).
 * Without `--dir` the plugin goes to `plugins/<id>` of this workspace as `@wallet/plugin-<id>`, is
 * added to `@wallet/regions` and enabled by one line in the default region; with `--dir` it is a
 * package `<scope>/wallet-plugin-<id>` in `<folder>/<id>` for a host outside the repo.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { PLUGIN_ID_PATTERN } from "../../../kernel/core/src/manifest.ts"
import { templates } from "./templates.ts"

export const repoRoot = resolve(import.meta.dirname, "..", "..", "..")

/** The kernel's id pattern plus the server module's length limit (2–40 characters, `defineServerPlugin`). */
export const validatePluginId = (id: string): string | undefined => {
  if (!PLUGIN_ID_PATTERN.test(id))
    return `Plugin id '${id}' must match ${PLUGIN_ID_PATTERN.source} (lower case letters, digits and '-', starting with a letter)`
  if (id.length < 2 || id.length > 40) return `Plugin id '${id}' must be 2 to 40 characters long`
  if (id.endsWith("-") || id.includes("--")) return `Plugin id '${id}' must not end in '-' or hold '--'`
  return undefined
}

const SCOPE_PATTERN = /^@[a-z0-9][a-z0-9._-]*$/

export interface CreateOptions {
  readonly id: string
  /** A folder outside the workspace: the package goes to `<dir>/<id>`. Absent: `plugins/<id>` of the repo. */
  readonly dir?: string
  /** npm scope of an outside package (default `@acme`). */
  readonly scope?: string
  /** Route path of the screen (default `/<id>`). */
  readonly routePath?: string
}

export interface Created {
  readonly packageName: string
  readonly folder: string
  readonly files: ReadonlyArray<string>
  readonly inRepo: boolean
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, any>

/** The exact versions this repo pins, read from its package.json files. */
export const repoVersions = () => {
  const react = readJson(join(repoRoot, "kernel/react/package.json"))
  const root = readJson(join(repoRoot, "package.json"))
  const kernel = readJson(join(repoRoot, "kernel/core/package.json"))
  const deps = { ...react.dependencies, ...react.devDependencies, ...react.peerDependencies } as Record<string, string>
  return {
    react: deps.react!,
    effect: deps.effect!,
    router: deps["@tanstack/react-router"]!,
    query: deps["@tanstack/react-query"]!,
    tsup: root.devDependencies.tsup as string,
    typescript: root.devDependencies.typescript as string,
    vitest: root.devDependencies.vitest as string,
    kernel: `^${kernel.version as string}`,
    testkit: `^${readJson(join(repoRoot, "tooling/testkit/package.json")).version as string}`,
  }
}

/** Writes the package; throws on an invalid id or scope, or when the folder exists. */
export const createPlugin = (options: CreateOptions): Created => {
  const problem = validatePluginId(options.id)
  if (problem) throw new Error(problem)
  const scope = options.scope ?? "@acme"
  if (!SCOPE_PATTERN.test(scope)) throw new Error(`Scope '${scope}' must look like @acme`)
  const routePath = options.routePath ?? `/${options.id}`
  if (!/^\/[a-z0-9/-]*$/.test(routePath)) throw new Error(`Route path '${routePath}' must start with '/' and hold lower case letters, digits, '-' and '/'`)
  const inRepo = options.dir === undefined
  const folder = inRepo ? join(repoRoot, "plugins", options.id) : resolve(options.dir!, options.id)
  if (existsSync(folder)) throw new Error(`${folder} already exists; pick another id or folder`)
  const packageName = inRepo ? `@wallet/plugin-${options.id}` : `${scope}/wallet-plugin-${options.id}`
  const files = templates({ id: options.id, packageName, inRepo, routePath, versions: repoVersions() })
  for (const [path, content] of Object.entries(files)) {
    const file = join(folder, path)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, content)
  }
  return { packageName, folder, files: Object.keys(files), inRepo }
}

/** The region line that enables a plugin package. */
export const regionLine = (packageName: string): string => `    ${JSON.stringify(packageName)}: { enabled: true },`

/**
 * Adds `line` to the `plugins: { ... }` map of a region file (after its last entry). Returns the new
 * text; throws when the file has no `plugins: {` map or already names the package.
 */
export const addRegionLine = (source: string, packageName: string): string => {
  if (source.includes(JSON.stringify(packageName))) throw new Error(`the region already names ${packageName}`)
  const start = source.indexOf("plugins: {")
  if (start < 0) throw new Error("the region file has no `plugins: {` map")
  const end = source.indexOf("\n  },", start)
  if (end < 0) throw new Error("the region file's `plugins` map does not end with `\\n  },`")
  return `${source.slice(0, end)}\n${regionLine(packageName)}${source.slice(end)}`
}

/** In the repo: `@wallet/regions` depends on the new package and the default region enables it. */
export const enableInRepo = (created: Created, root: string = repoRoot): void => {
  const regionsPackage = join(root, "host/regions/package.json")
  const pkg = readJson(regionsPackage)
  pkg.dependencies = Object.fromEntries(Object.entries({ ...pkg.dependencies, [created.packageName]: "workspace:^" }).sort(([a], [b]) => a.localeCompare(b)))
  writeFileSync(regionsPackage, `${JSON.stringify(pkg, null, 2)}\n`)
  const region = join(root, "host/regions/default.ts")
  writeFileSync(region, addRegionLine(readFileSync(region, "utf8"), created.packageName))
}
