/**
 * Issue 14 "one plugin discovery": packages installed in a node_modules outside the repo, named by
 * package in a region file, found through their `exports` by the server and by the app build, and
 * a conflict reported by both with the same message.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { build, defaultClientConditions } from "vite"
import type { RegionConfig } from "@wallet/kernel"
import { walletPlugins } from "../../app/src/build/plugins-vite.ts"
import { checkAppComposition } from "../../app/src/build/check.ts"
import { checkServerComposition, resolveRegionPlugins, type EntryResolver } from "../src/plugins.ts"

let dir: string
let resolveFromOutside: EntryResolver

/** A plugin package in `<dir>/node_modules/@acme/plugin-<id>`: plain ESM, exports `./manifest` and maybe `./server`. */
const writePackage = (id: string, manifest: string, server?: string) => {
  const root = join(dir, "node_modules", "@acme", `plugin-${id}`)
  mkdirSync(join(root, "dist"), { recursive: true })
  const exports: Record<string, string> = { "./manifest": "./dist/manifest.js" }
  if (server !== undefined) exports["./server"] = "./dist/server.js"
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: `@acme/plugin-${id}`, version: "1.0.0", type: "module", exports }))
  writeFileSync(join(root, "dist", "manifest.js"), manifest)
  if (server !== undefined) writeFileSync(join(root, "dist", "server.js"), server)
}

const manifest = (id: string, extra = "") =>
  `const screen = async () => ({ default: () => null });\n` +
  `export const Search = { note: "not a manifest" };\n` +
  `export const ${id}Plugin = { id: "${id}", version: "1.0.0", kernel: "^0.1.0", ${extra} };\n`

const server = (id: string, path: string, migration: string) =>
  `export default { id: "${id}", dependsOn: [], groups: [{ identifier: "${id}", endpoints: { list: { identifier: "list", method: "GET", path: "${path}" } } }], ` +
  `migrations: [{ id: 1, name: "${migration}" }], handlers: {} };\n`

const region = (plugins: ReadonlyArray<string>): RegionConfig => ({
  id: "outside",
  plugins: Object.fromEntries(plugins.map((id) => [`@acme/plugin-${id}`, { enabled: true }])),
})

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "wallet-plugins-outside-"))
  writePackage(
    "alpha",
    manifest("alpha", `routes: [{ id: "home", parent: "root", path: "/alpha", component: screen }]`),
    server("alpha", "/api/alpha/items", "alpha items"),
  )
  writePackage(
    "beta",
    manifest(
      "beta",
      `dependsOn: ["alpha"], deepLinks: [{ prefix: "beta-", to: "/beta" }], routes: [{ id: "home", parent: "root", path: "/beta", component: screen }]`,
    ),
  )
  writePackage("clash", manifest("clash", `routes: [{ id: "page", parent: "root", path: "/alpha", component: screen }]`))
  writePackage("api", manifest("api"), server("api", "/api/alpha/items", "api items"))
  writePackage("migr", manifest("migr"), server("migr", "/api/migr/items", "alpha items"))
  // Node's ESM resolution from a folder outside the repo, the way host/regions resolves its own packages.
  writeFileSync(
    join(dir, "resolve.mjs"),
    `export const resolve = (name, entry) => { try { return import.meta.resolve(name + "/" + entry) } catch (error) { ` +
      `if (error.code === "ERR_PACKAGE_PATH_NOT_EXPORTED" && entry !== "manifest") return undefined; throw error } }\n`,
  )
  resolveFromOutside = ((await import(pathToFileURL(join(dir, "resolve.mjs")).href)) as { resolve: EntryResolver }).resolve
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The app build of a page importing `virtual:wallet-plugins`, with the regions at `<dir>/regions.mjs`. */
const buildApp = async (regions: ReadonlyArray<RegionConfig>): Promise<string> => {
  const regionsEntry = join(dir, "regions.mjs")
  writeFileSync(regionsEntry, `export const regions = ${JSON.stringify(Object.fromEntries(regions.map((r) => [r.id, r])))};\n`)
  writeFileSync(
    join(dir, "entry.js"),
    `import { installedPlugins } from "virtual:wallet-plugins";\nexport const ids = installedPlugins.map((p) => p.packageName + "=" + p.id);\n`,
  )
  const output = await build({
    configFile: false,
    root: dir,
    logLevel: "silent",
    plugins: [walletPlugins({ regionsEntry })],
    // As host/app/vite.config.ts: workspace packages from their sources (decision 0110).
    resolve: { conditions: ["source", ...defaultClientConditions] },
    build: { write: false, lib: { entry: join(dir, "entry.js"), formats: ["es"] }, minify: false },
  })
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((o) => ("output" in o ? o.output : []))
  return chunks.map((chunk) => ("code" in chunk ? chunk.code : "")).join("\n")
}

const messageOf = async (run: () => unknown): Promise<string> => {
  try {
    await run()
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  throw new Error("expected a failure")
}

describe("plugins found by package name (issue 14)", () => {
  it("the server resolves manifest and server entries of packages installed outside the repo", async () => {
    const resolved = await resolveRegionPlugins(region(["alpha", "beta"]), { resolve: resolveFromOutside })
    expect(resolved.composition.plugins.map((p) => p.id)).toEqual(["alpha", "beta"])
    expect(resolved.composition.routes.map((r) => r.fullPath)).toEqual(["/alpha", "/beta"])
    // beta exports no ./server: client-only.
    expect(resolved.serverPlugins.map((p) => p.id)).toEqual(["alpha"])
  })

  it("the server refuses an enabled plugin whose dependency is missing, naming both", async () => {
    expect(await messageOf(() => resolveRegionPlugins(region(["beta"]), { resolve: resolveFromOutside }))).toBe(
      "Plugin 'beta' depends on 'alpha', which is not installed (no plugin listed in region 'outside' has id 'alpha')",
    )
  })

  it("the server refuses an API path or migration name two plugins claim", async () => {
    expect(await messageOf(() => resolveRegionPlugins(region(["alpha", "api"]), { resolve: resolveFromOutside }))).toBe(
      "API path 'GET /api/alpha/items' is served by plugin 'alpha' and plugin 'api'",
    )
    expect(await messageOf(() => resolveRegionPlugins(region(["alpha", "migr"]), { resolve: resolveFromOutside }))).toBe(
      "Migration 'alpha items' is declared by plugin 'alpha' and plugin 'migr'",
    )
  })

  it("the app build imports the manifests the regions name", async () => {
    const code = await buildApp([region(["alpha", "beta"])])
    expect(code).toContain('packageName: "@acme/plugin-alpha"')
    expect(code).toContain('packageName: "@acme/plugin-beta"')
    // Only the manifest export is bundled, not its other exports.
    expect(code).not.toContain("not a manifest")
    // Removing beta's line removes it from both sides; alpha is untouched.
    const without = await buildApp([region(["alpha"])])
    expect(without).toContain('packageName: "@acme/plugin-alpha"')
    expect(without).not.toContain("@acme/plugin-beta")
    const atServer = await resolveRegionPlugins(region(["alpha"]), { resolve: resolveFromOutside })
    expect(atServer.composition.plugins.map((p) => p.id)).toEqual(["alpha"])
    expect(atServer.serverPlugins.map((p) => p.id)).toEqual(["alpha"])
  }, 60_000)

  it("a route conflict stops the server boot and the app build with the same message", async () => {
    const expected = "Path '/alpha' is claimed by plugin 'alpha' (route 'alpha/home') and plugin 'clash' (route 'clash/page')"
    const conflicting = region(["alpha", "clash"])
    const atServer = await messageOf(() => resolveRegionPlugins(conflicting, { resolve: resolveFromOutside }))
    const atBuild = await messageOf(() => buildApp([conflicting]))
    expect(atServer).toBe(expected)
    expect(atBuild).toContain(expected)
    // The two checks themselves, on the same manifests: one function, one message.
    const { composition } = await resolveRegionPlugins(region(["alpha"]), { resolve: resolveFromOutside })
    const clash = (await resolveRegionPlugins(region(["clash"]), { resolve: resolveFromOutside })).composition.plugins
    const installed = [...composition.plugins, ...clash]
    expect(await messageOf(() => checkAppComposition([conflicting], installed))).toBe(expected)
    expect(await messageOf(() => checkServerComposition(conflicting, installed, []))).toBe(expected)
  }, 60_000)
})
