/**
 * Issue 14, "Boundaries checked": a plugin may import another plugin only when its manifest's
 * `dependsOn` names it, only through that package's public entries (its package.json `exports`),
 * and never by a relative path into another package. A test file may also import a plugin its
 * package lists in `devDependencies` (a test composes a server with another plugin's module without
 * the plugin depending on it at run time), still through public entries. The rules read the
 * manifests and package.json files themselves, so the test follows whatever they declare.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import type { PluginManifest } from "../../../kernel/core/src/manifest.ts"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..")

interface Pkg {
  readonly dir: string
  readonly name: string
  readonly exports: ReadonlyArray<string>
  readonly devDependencies: ReadonlyArray<string>
}

const readPkg = (dir: string): Pkg => {
  const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
    name: string
    exports?: Record<string, unknown> | string
    devDependencies?: Record<string, string>
  }
  const exports = typeof json.exports === "string" || json.exports === undefined ? ["."] : Object.keys(json.exports)
  return { dir, name: json.name, exports, devDependencies: Object.keys(json.devDependencies ?? {}) }
}

/** Unit tests beside the code and the package's `test/` folder. */
const isTestFile = (path: string, pluginDir: string): boolean => /\.test\.tsx?$/.test(path) || path.startsWith(join(pluginDir, "test") + sep)

const listDirs = (parent: string): ReadonlyArray<string> =>
  readdirSync(parent)
    .map((name) => join(parent, name))
    .filter((dir) => statSync(dir).isDirectory() && statSync(join(dir, "package.json"), { throwIfNoEntry: false })?.isFile())

const pluginDirs = listDirs(join(root, "plugins"))
const packages: ReadonlyArray<Pkg> = [...listDirs(join(root, "kernel")), ...listDirs(join(root, "host")), ...pluginDirs].map(readPkg)
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]))

/** Each plugin's manifest, as its package exports it (`./manifest`). */
const manifestOf = async (dir: string): Promise<PluginManifest> => {
  const module = (await import(join(dir, "src/manifest.ts"))) as Record<string, unknown>
  const manifest = Object.values(module).find(
    (value): value is PluginManifest => typeof value === "object" && value !== null && "id" in value && "kernel" in value && "version" in value,
  )
  if (!manifest) throw new Error(`${relative(root, dir)}/src/manifest.ts exports no plugin manifest`)
  return manifest
}

const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : []
  })

/** Every module specifier a file names: static and type imports, re-exports and dynamic `import()`. */
export const specifiersOf = (text: string): ReadonlyArray<string> => ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName)

/** `@scope/name/sub/path` → [`@scope/name`, `./sub/path`]; `name/sub` → [`name`, `./sub`]. */
const splitSpecifier = (specifier: string): readonly [string, string] => {
  const parts = specifier.split("/")
  const size = specifier.startsWith("@") ? 2 : 1
  const rest = parts.slice(size).join("/")
  return [parts.slice(0, size).join("/"), rest ? `./${rest}` : "."]
}

export interface Violation {
  readonly file: string
  readonly specifier: string
  readonly reason: string
}

/** The boundary rules for one plugin, against the packages of this workspace. */
export const checkPlugin = (
  plugin: {
    readonly dir: string
    readonly name: string
    readonly id: string
    readonly dependsOn: ReadonlyArray<string>
    readonly devDependencies: ReadonlyArray<string>
  },
  files: ReadonlyArray<{ readonly path: string; readonly text: string }>,
): ReadonlyArray<Violation> => {
  const violations: Array<Violation> = []
  for (const { path, text } of files) {
    const file = relative(root, path)
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith(".")) {
        const target = resolve(dirname(path), specifier)
        if (target !== plugin.dir && !target.startsWith(plugin.dir + sep))
          violations.push({ file, specifier, reason: "reaches outside its package by relative path" })
        continue
      }
      const [name, subpath] = splitSpecifier(specifier)
      const pkg = byName.get(name)
      if (!pkg || pkg.name === plugin.name) continue
      if (pkg.dir.startsWith(join(root, "plugins") + sep)) {
        const id = pkg.dir.slice(join(root, "plugins").length + 1)
        const forTests = isTestFile(path, plugin.dir) && plugin.devDependencies.includes(pkg.name)
        if (!plugin.dependsOn.includes(id) && !forTests)
          violations.push({ file, specifier, reason: `imports plugin '${id}' that its manifest's dependsOn does not list` })
      }
      if (!pkg.exports.includes(subpath))
        violations.push({ file, specifier, reason: `'${subpath}' is not a public entry of ${name} (exports: ${pkg.exports.join(", ")})` })
    }
  }
  return violations
}

const plugins = await Promise.all(
  pluginDirs.map(async (dir) => {
    const manifest = await manifestOf(dir)
    const pkg = readPkg(dir)
    return { dir, name: pkg.name, id: manifest.id, dependsOn: manifest.dependsOn ?? [], devDependencies: pkg.devDependencies }
  }),
)

const format = (violations: ReadonlyArray<Violation>) => violations.map((v) => `${v.file}: '${v.specifier}' ${v.reason}`)

describe("plugin boundaries (issue 14)", () => {
  it("finds every plugin with its manifest", () => {
    // Every folder under plugins/ is a plugin package (a scaffolded one counts at once), with its manifest's id as folder name.
    const folders = readdirSync(join(root, "plugins"), { withFileTypes: true }).filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
    expect(plugins.map((p) => relative(join(root, "plugins"), p.dir)).sort()).toEqual(folders.map((entry) => entry.name).sort())
    expect(plugins.map((p) => p.id)).toEqual(expect.arrayContaining(["custody", "home", "passcode", "settings", "ton-space", "tonconnect"]))
    for (const plugin of plugins) {
      expect(plugin.dir.endsWith(`${sep}${plugin.id}`)).toBe(true)
      expect(plugin.name).toBe(`@wallet/plugin-${plugin.id}`)
    }
  })

  for (const plugin of plugins) {
    it(`issue 14: ${plugin.id} imports only plugins it depends on, through their public entries`, () => {
      const files = sourceFiles(join(plugin.dir, "src")).map((path) => ({ path, text: readFileSync(path, "utf8") }))
      expect(format(checkPlugin(plugin, files))).toEqual([])
    })
  }

  // Issue 14 ("a config.ts where screens need the plugin's config"): a screen reads its plugin's
  // region config through `src/config.ts`; importing the manifest would pull every route, bundle
  // loader and slot into the screen's chunk.
  for (const plugin of plugins) {
    it(`issue 14: no ${plugin.id} screen imports its own manifest`, () => {
      const client = join(plugin.dir, "src", "client")
      const files = statSync(client, { throwIfNoEntry: false })?.isDirectory() ? sourceFiles(client).filter((path) => !isTestFile(path, plugin.dir)) : []
      const offenders = files.flatMap((path) =>
        specifiersOf(readFileSync(path, "utf8"))
          .filter(
            (specifier) =>
              (specifier.startsWith(".") && resolve(dirname(path), specifier) === join(plugin.dir, "src", "manifest.ts")) ||
              specifier === `${plugin.name}/manifest`,
          )
          .map((specifier) => `${relative(root, path)}: '${specifier}'`),
      )
      expect(offenders).toEqual([])
    })
  }

  describe("the rules themselves", () => {
    const tonconnect = plugins.find((p) => p.id === "tonconnect")!
    const at = (text: string) => [{ path: join(tonconnect.dir, "src/client/x.ts"), text }]

    it("refuses a plugin its manifest does not depend on, even through a public entry", () => {
      expect(format(checkPlugin({ ...tonconnect, dependsOn: [] }, at(`import { x } from "@wallet/plugin-ton-space/wallet-access"`)))).toEqual([
        "plugins/tonconnect/src/client/x.ts: '@wallet/plugin-ton-space/wallet-access' imports plugin 'ton-space' that its manifest's dependsOn does not list",
      ])
    })

    it("refuses a subpath that is not among the package's exports, dynamic and type imports too", () => {
      const found = checkPlugin(
        { ...tonconnect, dependsOn: ["ton-space"] },
        at(`import type { A } from "@wallet/plugin-ton-space/src/client/a.ts"\nconst b = () => import("@wallet/kernel/src/http.ts")`),
      )
      expect(found.map((v) => v.specifier)).toEqual(["@wallet/plugin-ton-space/src/client/a.ts", "@wallet/kernel/src/http.ts"])
      expect(found.every((v) => v.reason.includes("is not a public entry"))).toBe(true)
    })

    it("refuses a relative path into another package", () => {
      expect(format(checkPlugin(tonconnect, at(`export { a } from "../../../ton-space/src/client/a.ts"\nimport "./own.ts"`)))).toEqual([
        "plugins/tonconnect/src/client/x.ts: '../../../ton-space/src/client/a.ts' reaches outside its package by relative path",
      ])
    })

    it("lets a test file import a plugin of its devDependencies through a public entry, and nothing else does", () => {
      const custody = plugins.find((p) => p.id === "custody")!
      const importing = (file: string, specifier: string) => checkPlugin(custody, [{ path: join(custody.dir, file), text: `import { x } from "${specifier}"` }])
      expect(custody.devDependencies).toContain("@wallet/plugin-passcode")
      expect(importing("src/server/operationTokens.test.ts", "@wallet/plugin-passcode/server")).toEqual([])
      expect(format(importing("src/server/handlers.ts", "@wallet/plugin-passcode/server"))).toEqual([
        "plugins/custody/src/server/handlers.ts: '@wallet/plugin-passcode/server' imports plugin 'passcode' that its manifest's dependsOn does not list",
      ])
      const deep = importing("src/server/operationTokens.test.ts", "@wallet/plugin-passcode/src/server/index.ts")
      expect(deep.map((v) => v.reason.split(" (")[0])).toEqual(["'./src/server/index.ts' is not a public entry of @wallet/plugin-passcode"])
      // Issue 14: custody's operation-token test reached into passcode's source by a relative path.
      expect(format(importing("src/server/operationTokens.test.ts", "../../../passcode/src/server/index.ts"))).toEqual([
        "plugins/custody/src/server/operationTokens.test.ts: '../../../passcode/src/server/index.ts' reaches outside its package by relative path",
      ])
    })

    it("accepts a declared dependency through a public entry", () => {
      expect(
        checkPlugin(
          { ...tonconnect, dependsOn: ["ton-space"] },
          at(`import { a } from "@wallet/plugin-ton-space/wallet-access"\nimport { b } from "@wallet/kernel"`),
        ),
      ).toEqual([])
    })
  })
})
