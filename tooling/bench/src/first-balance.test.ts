import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { compareLoads, documentReferences, FIRST_BALANCE_ROOTS, firstBalanceFiles, kB, rootsFor, type GraphChunk } from "./first-balance.ts"

const repoRoot = join(import.meta.dirname, "..", "..", "..")
const root = "/repo"
const chunk = (file: string, modules: Array<string>, imports: Array<string> = [], css: Array<string> = []): GraphChunk => ({
  file,
  modules: modules.map((m) => `${root}/${m}`),
  imports,
  css,
})

describe("bytes before the first balance, from the module graph (issue 17)", () => {
  const chunks = [
    chunk("assets/app.js", ["host/app/src/main.tsx"], ["assets/react.js"], ["assets/app.css"]),
    chunk("assets/react.js", ["node_modules/react-dom/index.js"]),
    chunk("assets/MainScreen.js", ["plugins/home/src/client/MainScreen.tsx"], ["assets/react.js", "assets/Cell.js"], ["assets/MainScreen.css"]),
    chunk("assets/Cell.js", ["kernel/react/src/ui/Cell.tsx"], [], ["assets/Cell.css"]),
    chunk("assets/api.js", ["plugins/custody/src/api.ts"], ["assets/Schema.js"]),
    chunk("assets/Schema.js", ["node_modules/effect/dist/Schema.js"]),
    chunk("assets/en.js", ["plugins/home/src/i18n/en.json"]),
    chunk("assets/ru.js", ["plugins/home/src/i18n/ru.json"]),
    chunk("assets/Settings.js", ["plugins/settings/src/client/SettingsScreen.tsx"]),
  ]

  it("counts the dynamic imports on the path (the 38 kB the old count missed): the contract and its Schema, not only the route", () => {
    const roots = rootsFor("en", [
      { module: "plugins/home/src/client/MainScreen.tsx", why: "route" },
      { module: "plugins/home/src/i18n/{lang}.json", why: "strings" },
      { module: "plugins/custody/src/api.ts", why: "contract" },
    ])
    const { files, missing, via } = firstBalanceFiles(chunks, "assets/app.js", roots, root)
    expect(missing).toEqual([])
    expect(via.get("assets/Schema.js")).toBe("plugins/custody/src/api.ts")
    expect(via.get("assets/react.js")).toBe("entry")
    expect(files).toEqual([
      "assets/app.js",
      "assets/react.js",
      "assets/MainScreen.js",
      "assets/Cell.js",
      "assets/en.js",
      "assets/api.js",
      "assets/Schema.js",
      "assets/app.css",
      "assets/MainScreen.css",
      "assets/Cell.css",
    ])
    // Other languages and other routes stay out.
    expect(files).not.toContain("assets/ru.js")
    expect(files).not.toContain("assets/Settings.js")
  })

  it("names a listed module that is in no chunk (a rename the list must follow)", () => {
    const { missing } = firstBalanceFiles(chunks, "assets/app.js", [{ module: "plugins/home/src/client/Gone.tsx", why: "x" }], root)
    expect(missing).toEqual(["plugins/home/src/client/Gone.tsx"])
  })

  it("lists modules that exist in the repo, for every launch language", () => {
    for (const language of ["en", "ru"]) for (const r of rootsFor(language)) expect(existsSync(join(repoRoot, r.module)), `${r.module} (${r.why})`).toBe(true)
    expect(FIRST_BALANCE_ROOTS.some((r) => r.module === "plugins/home/src/client/wallet/MainContent.tsx")).toBe(true)
  })

  it("compares the graph with a browser load: files on one side only, and a warning above 5%", () => {
    const graph = [
      { path: "/index.html", bytes: 1000 },
      { path: "/assets/app.js", bytes: 90_000 },
      { path: "/assets/api.js", bytes: 9_000 },
    ]
    const same = compareLoads(graph, graph.toReversed())
    expect(same).toMatchObject({ graphBytes: 100_000, browserBytes: 100_000, difference: 0, warn: false, onlyBrowser: [], onlyGraph: [] })
    const browser = [graph[0]!, graph[1]!, { path: "/assets/custody-i18n.js", bytes: 15_000 }]
    const apart = compareLoads(graph, browser)
    expect(apart.warn).toBe(true)
    expect(apart.onlyBrowser).toEqual([{ path: "/assets/custody-i18n.js", bytes: 15_000 }])
    expect(apart.onlyGraph).toEqual([{ path: "/assets/api.js", bytes: 9_000 }])
    expect(compareLoads(graph, [graph[0]!, { path: "/assets/app.js", bytes: 94_000 }, graph[2]!]).warn).toBe(false)
  })

  it("counts what the document itself fetches: scripts, stylesheets and preloads on this origin", () => {
    const html = `<!doctype html><html><head><script>document.documentElement.dataset.x = "1"</script>
      <link rel="stylesheet" crossorigin href="/assets/ui-1.css"><script type="module" crossorigin src="/assets/app-2.js"></script>
      <link rel="modulepreload" crossorigin href="/assets/MainScreen-3.js"><link rel="icon" href="/favicon.svg">
      <link rel="preconnect" href="https://example.org"><script src="https://cdn.example.org/x.js"></script></head></html>`
    expect(documentReferences(html)).toEqual(["assets/ui-1.css", "assets/app-2.js", "assets/MainScreen-3.js"])
  })

  it("prints kB of 1000 bytes, as the browser does", () => {
    expect(kB(210_000)).toBe("210.0")
    expect(kB(1024)).toBe("1.0")
  })
})
