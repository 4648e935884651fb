import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build } from "tsup"
import { afterAll, describe, expect, it } from "vitest"
// @ts-expect-error plain ESM helper without types (tooling/scripts)
import { packageBuild } from "../../scripts/tsup-package.mjs"

// Decision 0110: the published packages build with tsup; `exports` serve dist/ (the workspace resolves
// the `source` condition); `pnpm pack` gives a tarball with dist/ and a README.
const root = join(import.meta.dirname, "..", "..", "..")
const published = ["kernel", "plugins"]
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(group, name)))
  .filter((dir) => existsSync(join(root, dir, "package.json")))

type Target = { readonly source?: string; readonly types?: string; readonly import?: string }
type Manifest = {
  readonly name: string
  readonly private?: boolean
  readonly exports: Record<string, Target>
  readonly files?: ReadonlyArray<string>
  readonly scripts?: Record<string, string>
  readonly publishConfig?: { readonly exports?: Record<string, Target> }
  readonly dependencies?: Record<string, string>
}
const manifestOf = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"))

describe("published packages", () => {
  it.each(published)("%s exports its sources under `source` and the built files to everybody else", (dir) => {
    const pkg = manifestOf(dir)
    expect(pkg.private).toBe(false)
    expect(pkg.files).toEqual(["dist", "README.md"])
    expect(pkg.scripts?.build).toBe("tsup")
    expect(existsSync(join(root, dir, "README.md"))).toBe(true)
    expect(existsSync(join(root, dir, "tsup.config.ts"))).toBe(true)
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      expect(typeof target, `${pkg.name} ${subpath}`).toBe("object")
      // `source` first: conditions match in key order, and it must win in the workspace.
      expect(Object.keys(target), `${pkg.name} ${subpath}`).toEqual(["source", "types", "import"])
      expect(existsSync(join(root, dir, target.source!)), `${pkg.name} ${subpath} → ${target.source}`).toBe(true)
      const built = target.source!.replace(/^\.\/src\//, "./dist/").replace(/\.tsx?$/, "")
      expect(target).toEqual({ source: target.source, types: `${built}.d.ts`, import: `${built}.js` })
    }
    // What `pnpm pack` writes: the same map without the source condition (the tarball has no src/).
    expect(pkg.publishConfig?.exports).toEqual(
      Object.fromEntries(Object.entries(pkg.exports).map(([subpath, { types, import: js }]) => [subpath, { types, import: js }])),
    )
  })
})

describe("pnpm pack of @wallet/kernel", () => {
  const dir = join(root, "kernel/core")
  const hadDist = existsSync(join(dir, "dist"))
  const scratch = mkdtempSync(join(tmpdir(), "wallet-pack-"))
  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true })
    if (!hadDist) rmSync(join(dir, "dist"), { recursive: true, force: true })
  })

  it("gives a tarball of dist/ and the README whose entries import in plain Node", { timeout: 60_000 }, async () => {
    // The JavaScript half of `npm run build:packages` (declarations take ~25 s and are the same rollup step for every package).
    await build({ ...packageBuild(dir), dts: false, silent: true, config: false })
    execFileSync(process.execPath, [join(root, "tooling/scripts/pnpm.mjs"), "--dir", dir, "pack", "--pack-destination", scratch], { cwd: root, stdio: "pipe" })
    const [tarball] = readdirSync(scratch).filter((file) => file.endsWith(".tgz"))
    expect(tarball).toBe("wallet-kernel-0.1.0.tgz")

    const files = execFileSync("tar", ["-tzf", join(scratch, tarball!)], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((file) => file.replace(/^package\//, ""))
    expect(files).toContain("package.json")
    expect(files).toContain("README.md")
    expect(files.filter((file) => !file.startsWith("dist/") && file !== "package.json" && file !== "README.md")).toEqual([])
    const packed = manifestOf("kernel/core")
    for (const { import: js } of Object.values(packed.exports)) expect(files).toContain(js!.replace(/^\.\//, ""))

    execFileSync("tar", ["-xzf", join(scratch, tarball!), "-C", scratch])
    const unpacked = join(scratch, "package")
    const shipped = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8")) as Manifest
    expect(JSON.stringify(shipped.exports)).not.toContain("source")
    expect(shipped.exports["."]).toEqual({ types: "./dist/index.d.ts", import: "./dist/index.js" })

    // A consumer with node_modules/@wallet/kernel = the unpacked tarball (its dependencies linked in).
    symlinkSync(join(dir, "node_modules"), join(unpacked, "node_modules"), "dir")
    const consumer = join(scratch, "consumer")
    mkdirSync(join(consumer, "node_modules", "@wallet"), { recursive: true })
    symlinkSync(unpacked, join(consumer, "node_modules", "@wallet", "kernel"), "dir")
    const script = [
      `const where = import.meta.resolve("@wallet/kernel")`,
      `const kernel = await import("@wallet/kernel")`,
      `const client = await import("@wallet/kernel/client")`,
      `const api = await import("@wallet/kernel/api")`,
      `console.log(JSON.stringify({ where, definePlugin: typeof kernel.definePlugin, client: Object.keys(client).length, api: Object.keys(api).length }))`,
    ].join("\n")
    // Plain Node: no tsx, no `--conditions=source` (NODE_OPTIONS of the test run dropped).
    const env = { ...process.env }
    delete env.NODE_OPTIONS
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: consumer, env, encoding: "utf8" })
    expect(run.stderr).toBe("")
    const result = JSON.parse(run.stdout) as { where: string; definePlugin: string; client: number; api: number }
    expect(result.where).toMatch(/\/package\/dist\/index\.js$/)
    expect(result.definePlugin).toBe("function")
    expect(result.client).toBeGreaterThan(0)
    expect(result.api).toBeGreaterThan(0)
  })
})

describe("tsup build of a plugin with CSS modules (@wallet/plugin-home)", () => {
  const dir = join(root, "plugins/home")
  const hadDist = existsSync(join(dir, "dist"))
  afterAll(() => {
    if (!hadDist) rmSync(join(dir, "dist"), { recursive: true, force: true })
  })

  it("keeps local class names, imports each screen's CSS from its chunk and none from the manifest", { timeout: 60_000 }, async () => {
    await build({ ...packageBuild(dir), dts: false, silent: true, config: false })
    const dist = join(dir, "dist")
    const manifest = readFileSync(join(dist, "manifest.js"), "utf8")
    // The server and the app build read the manifest in Node: no CSS on its static path.
    expect(manifest).not.toMatch(/\.css["']/)
    const screen = readdirSync(dist).find((file) => /^MainScreen-.+\.js$/.test(file))
    expect(screen).toBeDefined()
    const code = readFileSync(join(dist, screen!), "utf8")
    const [, cssFile] = code.match(/^import "\.\/(.+\.css)";/) ?? []
    expect(cssFile).toBeDefined()
    const css = readFileSync(join(dist, cssFile!), "utf8")
    // esbuild's local-css: `.root` of main.module.css becomes a scoped name the JS class map points at.
    const scoped = [...css.matchAll(/^\.(main_module_css_[\w-]+)/gm)].map(([, name]) => name)
    expect(scoped.length).toBeGreaterThan(0)
    const chunks = readdirSync(dist)
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(join(dist, file), "utf8"))
      .join("\n")
    for (const name of scoped) expect(chunks).toContain(`"${name}"`)
  })
})
