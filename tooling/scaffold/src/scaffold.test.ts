import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { addRegionLine, createPlugin, repoRoot as scaffoldRoot, repoVersions, validatePluginId } from "./scaffold.ts"
import { templates } from "./templates.ts"

// Decision 0150: `npm run create-plugin` writes a plugin package from templates.
const scratch = mkdtempSync(join(tmpdir(), "wallet-scaffold-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const read = (folder: string, file: string) => readFileSync(join(folder, file), "utf8")

describe("create-plugin", () => {
  it("writes an outside package with the shared shape: exports with source/types/import, publishConfig, peers, a self-contained build", () => {
    const created = createPlugin({ id: "my-notes", dir: scratch, scope: "@acme" })
    expect(created.packageName).toBe("@acme/wallet-plugin-my-notes")
    expect(created.folder).toBe(join(scratch, "my-notes"))
    expect([...created.files].sort()).toEqual(
      [
        "README.md",
        "package.json",
        "src/api.ts",
        "src/client/Screen.tsx",
        "src/client/client.ts",
        "src/config.ts",
        "src/i18n/en.json",
        "src/i18n/ru.json",
        "src/index.ts",
        "src/manifest.test.ts",
        "src/manifest.ts",
        "src/server/index.ts",
        "src/server/server.test.ts",
        "test/my-notes.e2e.ts",
        "tsconfig.json",
        "tsup.config.ts",
      ].sort(),
    )
    for (const file of created.files) expect(existsSync(join(created.folder, file))).toBe(true)
    const pkg = JSON.parse(read(created.folder, "package.json"))
    expect(pkg.version).toBe("0.1.0")
    expect(Object.keys(pkg.exports)).toEqual([".", "./manifest", "./api", "./server"])
    expect(pkg.exports["./server"]).toEqual({ source: "./src/server/index.ts", types: "./dist/server/index.d.ts", import: "./dist/server/index.js" })
    expect(pkg.publishConfig.exports["./manifest"]).toEqual({ types: "./dist/manifest.d.ts", import: "./dist/manifest.js" })
    expect(pkg.files).toEqual(["dist", "README.md"])
    expect(pkg.scripts.build).toBe("tsup")
    const versions = repoVersions()
    expect(pkg.peerDependencies).toMatchObject({
      "@wallet/kernel": versions.kernel,
      "@wallet/kernel-react": versions.kernel,
      "@wallet/kernel-server": versions.kernel,
      react: `^${versions.react}`,
      effect: `^${versions.effect}`,
    })
    // An outside package cannot reach tooling/: its build and tsconfig stand alone.
    // Its browser test runs on the published test kit against the host folder WALLET_HOST names.
    const testkit = JSON.parse(read(join(scaffoldRoot, "tooling/testkit"), "package.json"))
    expect(testkit.private).toBe(false)
    expect(pkg.devDependencies).toMatchObject({ "@wallet/testkit": `^${testkit.version}`, vitest: versions.vitest })
    const e2e = read(created.folder, "test/my-notes.e2e.ts")
    expect(e2e).toContain(`import { signInitData, startHost, type Host } from "@wallet/testkit"`)
    expect(e2e).toContain("process.env.WALLET_HOST")
    expect(e2e).not.toContain("@wallet/harness")
    expect(read(created.folder, "tsup.config.ts")).not.toContain("tooling")
    expect(read(created.folder, "tsconfig.json")).not.toContain("extends")
    // Id, route, API paths and the table prefix the kernel requires.
    expect(read(created.folder, "src/manifest.ts")).toContain(`path: "/my-notes"`)
    expect(read(created.folder, "src/api.ts")).toContain(`"/api/my-notes/notes"`)
    expect(read(created.folder, "src/server/index.ts")).toContain("create table my_notes_notes")
    expect(Object.keys(JSON.parse(read(created.folder, "src/i18n/ru.json")))).toEqual(Object.keys(JSON.parse(read(created.folder, "src/i18n/en.json"))))
  })

  it("takes a scope and a route path", () => {
    const created = createPlugin({ id: "other", dir: scratch, scope: "@my-org", routePath: "/other/page" })
    expect(created.packageName).toBe("@my-org/wallet-plugin-other")
    expect(read(created.folder, "src/manifest.ts")).toContain(`path: "/other/page"`)
    expect(() => createPlugin({ id: "third", dir: scratch, routePath: "no-slash" })).toThrow("Route path 'no-slash'")
  })

  it("in the repo: the workspace shape (shared tsup config and tsconfig, workspace kernel, the harness for the browser test)", () => {
    const files = templates({ id: "my-notes", packageName: "@wallet/plugin-my-notes", inRepo: true, routePath: "/my-notes", versions: repoVersions() })
    const pkg = JSON.parse(files["package.json"]!)
    expect(pkg.name).toBe("@wallet/plugin-my-notes")
    expect(pkg.devDependencies).toMatchObject({
      "@wallet/kernel": "workspace:^",
      "@wallet/kernel-react": "workspace:^",
      "@wallet/kernel-server": "workspace:^",
      "@wallet/testkit": "workspace:^",
    })
    expect(pkg.devDependencies["@wallet/harness"]).toBeUndefined()
    // The same browser test as outside, with the repo as its host.
    expect(files["test/my-notes.e2e.ts"]).toContain(`from "@wallet/testkit"`)
    expect(files["test/my-notes.e2e.ts"]).toContain(`join(import.meta.dirname, "..", "..", "..")`)
    expect(files["tsup.config.ts"]).toContain("packageBuild(import.meta.dirname)")
    expect(files["tsconfig.json"]).toContain("../../tooling/tsconfig/tsconfig.base.json")
  })

  it("refuses ids the kernel refuses, bad scopes and an existing folder", () => {
    for (const id of ["Notes", "1notes", "notes_x", "n", "notes-", "a--b", "x".repeat(41)]) {
      expect(validatePluginId(id), id).toBeDefined()
      expect(() => createPlugin({ id, dir: scratch }), id).toThrow(/Plugin id/)
    }
    expect(validatePluginId("my-notes2")).toBeUndefined()
    expect(() => createPlugin({ id: "scoped", dir: scratch, scope: "acme" })).toThrow("Scope 'acme' must look like @acme")
    expect(() => createPlugin({ id: "my-notes", dir: scratch })).toThrow("already exists")
  })

  it("adds one line to a region's plugins map, once", () => {
    const region = `export default defineRegion({\n  id: "x",\n  plugins: {\n    "@wallet/plugin-home": { enabled: true },\n  },\n})\n`
    const next = addRegionLine(region, "@acme/wallet-plugin-notes")
    expect(next).toBe(
      `export default defineRegion({\n  id: "x",\n  plugins: {\n    "@wallet/plugin-home": { enabled: true },\n    "@acme/wallet-plugin-notes": { enabled: true },\n  },\n})\n`,
    )
    expect(() => addRegionLine(next, "@acme/wallet-plugin-notes")).toThrow("already names")
  })
})
