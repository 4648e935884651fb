// The one tsup setup of the published packages (decision 0110): each package's tsup.config.ts calls
// `packageBuild(import.meta.dirname)`. Entries are the `source` targets of the package's `exports`
// (`./src/x.ts` → `dist/x.js` + `dist/x.d.ts`), everything the package depends on stays external,
// CSS modules go through esbuild's `local-css` loader, JSON (i18n bundles) is inlined.
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { basename, dirname, join, relative, resolve } from "node:path"

/** `{ "dist name": "src path" }` from a package.json `exports` map whose entries carry a `source` condition. */
export const entriesOf = (pkg) => {
  const entries = {}
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const source = typeof target === "string" ? target : target?.source
    if (typeof source !== "string" || !/^\.\/src\/.+\.tsx?$/.test(source))
      throw new Error(`${pkg.name}: export '${subpath}' has no './src/*.ts' source condition`)
    entries[source.replace(/^\.\/src\//, "").replace(/\.tsx?$/, "")] = source
  }
  return entries
}

/** Dependencies, peers and dev dependencies, with their subpaths: never bundled into a published file. */
export const externalsOf = (pkg) =>
  [...new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})])].map(
    (name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}(/.*)?$`),
  )

/**
 * CSS modules the way Vite reads them in the workspace: tsup's own CSS step loads every `.css` as
 * global CSS (an empty class map), so `*.module.css` goes through esbuild's `local-css` loader here,
 * and each built JS file whose CSS esbuild collected (its `cssBundle`) imports that file, so a
 * consumer's bundler (Vite) picks the styles up with the screen that uses them.
 */
const staticallyReachesCss = (metafile, start) => {
  const seen = new Set()
  const queue = [start]
  while (queue.length > 0) {
    const key = queue.pop()
    if (seen.has(key)) continue
    seen.add(key)
    const output = metafile.outputs[key]
    if (!output) continue
    if (Object.keys(output.inputs).some((input) => input.startsWith("wallet-css-module:"))) return true
    for (const imported of output.imports) if (imported.kind === "import-statement" && !imported.external) queue.push(imported.path)
  }
  return false
}

const cssModules = () => {
  let metafile
  const esbuildPlugin = {
    name: "wallet-css-modules",
    setup(build) {
      // The path must not end in `.css`, or tsup's CSS step (it loads `/\.css$/` in every namespace) takes it.
      build.onResolve({ filter: /\.module\.css$/ }, (args) => ({ path: `${resolve(args.resolveDir, args.path)}.local`, namespace: "wallet-css-module" }))
      build.onLoad({ filter: /.*/, namespace: "wallet-css-module" }, async (args) => ({
        contents: await readFile(args.path.slice(0, -".local".length), "utf8"),
        loader: "local-css",
        resolveDir: dirname(args.path),
      }))
      build.onEnd((result) => {
        metafile = result.metafile
      })
    },
  }
  const tsupPlugin = {
    name: "wallet-css-imports",
    renderChunk(code, info) {
      if (!info.path.endsWith(".js")) return
      const key = relative(process.cwd(), info.path).split("\\").join("/")
      const css = metafile?.outputs[key]?.cssBundle
      // Only where the styles are reached by static imports: a manifest whose screens are lazy must
      // stay loadable by Node (the server reads manifests) and must not pull every screen's CSS.
      if (!css || !staticallyReachesCss(metafile, key)) return
      return { code: `import "./${relative(dirname(info.path), resolve(process.cwd(), css)).split("\\").join("/") || basename(css)}";\n${code}` }
    },
  }
  return { esbuildPlugin, tsupPlugin }
}

export const packageBuild = (dir, overrides = {}) => {
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const css = cssModules()
  return {
    // Absolute paths: the same result from the package folder (`pnpm build`) and from a test.
    entry: Object.fromEntries(Object.entries(entriesOf(pkg)).map(([name, source]) => [name, join(dir, source)])),
    outDir: join(dir, "dist"),
    format: ["esm"],
    target: "es2022",
    platform: "neutral",
    dts: true,
    splitting: true,
    treeshake: false,
    sourcemap: false,
    clean: true,
    external: externalsOf(pkg),
    // JSON (the i18n bundles, lazily imported) becomes JS chunks.
    loader: { ".json": "json" },
    esbuildPlugins: [css.esbuildPlugin],
    plugins: [css.tsupPlugin],
    tsconfig: join(dir, "tsconfig.json"),
    ...overrides,
  }
}
