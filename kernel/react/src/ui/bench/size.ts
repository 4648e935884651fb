// Bundle-size figures of the UI kit: builds three tiny apps with Vite (production) and prints the
// gzip size of their JS and CSS. Meant for tooling/bench/suites; run with
//   npx tsx kernel/react/src/ui/bench/size.ts
// baseline      React + react-dom rendering a <div> (what every screen pays anyway)
// main-screen   the components a first screen uses (List, Section, Cell, SkeletonList, TabBar, Button, Avatar, snackbars)
// whole-kit     every export of the kit kept alive
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { build } from "vite"

const here = dirname(fileURLToPath(import.meta.url))
const ui = resolve(here, "..")
const reactModules = resolve(ui, "../../node_modules")

const entries: Record<string, string> = {
  baseline: `import { createRoot } from "react-dom/client";
createRoot(document.getElementById("root")!).render(<div>hello</div>);`,
  "main-screen": `import { createRoot } from "react-dom/client";
import { Avatar, Button, Cell, List, Section, SkeletonList, SnackbarProvider, TabBar } from "${ui}/index.ts";
createRoot(document.getElementById("root")!).render(
  <SnackbarProvider>
    <List><Section header="Assets"><SkeletonList /><Cell before={<Avatar name="TON" />} title="TON" after="1" onClick={() => {}} /></Section><Button>Go</Button></List>
    <TabBar items={[{ id: "a", label: "A", icon: null }]} activeId="a" onSelect={() => {}} />
  </SnackbarProvider>,
);`,
  "whole-kit": `import { createRoot } from "react-dom/client";
import * as kit from "${ui}/index.ts";
(window as unknown as { kit: unknown }).kit = kit;
createRoot(document.getElementById("root")!).render(<div>hello</div>);`,
}

const work = mkdtempSync(join(tmpdir(), "wk-ui-size-"))
const sizes: Record<string, { js: number; css: number; lazyJs: number }> = {}
try {
  for (const [name, code] of Object.entries(entries)) {
    const dir = join(work, name)
    const html = join(work, `${name}.html`)
    writeFileSync(join(work, `${name}.tsx`), code)
    writeFileSync(html, `<!doctype html><html><body><div id="root"></div><script type="module" src="./${name}.tsx"></script></body></html>`)
    await build({
      configFile: false,
      root: work,
      logLevel: "silent",
      resolve: {
        alias: [
          { find: /^react-dom\/client$/, replacement: `${reactModules}/react-dom/client.js` },
          { find: /^react-dom$/, replacement: `${reactModules}/react-dom/index.js` },
          { find: /^react\/jsx-runtime$/, replacement: `${reactModules}/react/jsx-runtime.js` },
          { find: /^react$/, replacement: `${reactModules}/react/index.js` },
        ],
      },
      build: { outDir: dir, emptyOutDir: true, rollupOptions: { input: html } },
    })
    const assets = join(dir, "assets")
    const s = { js: 0, css: 0, lazyJs: 0 }
    for (const file of readdirSync(assets)) {
      const gz = gzipSync(readFileSync(join(assets, file)), { level: 9 }).length
      if (file.endsWith(".css")) s.css += gz
      else if (file.startsWith(name)) s.js += gz
      else s.lazyJs += gz // lazy chunks (the gallery) are not on the first screen
    }
    sizes[name] = s
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`
const base = sizes.baseline!
for (const [name, s] of Object.entries(sizes)) {
  const extra = name === "baseline" ? "" : `  (kit: +${kb(s.js - base.js)} JS, ${kb(s.css)} CSS)`
  console.log(
    `${name.padEnd(12)} JS ${kb(s.js).padStart(8)}  CSS ${kb(s.css).padStart(7)}  lazy ${kb(s.lazyJs).padStart(7)}  total ${kb(s.js + s.css).padStart(8)}${extra}`,
  )
}
const budget = 170 * 1024
const main = sizes["main-screen"]!
console.log(`first-screen budget 170 kB: main-screen kit + React uses ${kb(main.js + main.css)} (${((100 * (main.js + main.css)) / budget).toFixed(0)}%)`)
