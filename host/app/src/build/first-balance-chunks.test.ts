import { describe, expect, it } from "vitest"
import { firstBalanceGroups, type ModuleGraph } from "./first-balance-chunks.ts"

/** A module graph from a list of edges; `later` are the modules some module loads with import(). */
const graphOf = (imports: Record<string, ReadonlyArray<string>>, entries: ReadonlyArray<string>, later: ReadonlyArray<string>): ModuleGraph => {
  const ids = new Set([...Object.keys(imports), ...Object.values(imports).flat()])
  return {
    ids,
    importsOf: (id) => imports[id] ?? [],
    isEntry: (id) => entries.includes(id),
    isLoadedLater: (id) => later.includes(id),
  }
}

const R = "/repo"
const graph = graphOf(
  {
    [`${R}/host/app/index.html`]: [`${R}/host/app/src/main.tsx`, "\0vite/modulepreload-polyfill.js"],
    [`${R}/host/app/launch.html`]: [`${R}/host/app/src/launch/main.ts`, "\0vite/modulepreload-polyfill.js"],
    [`${R}/host/app/src/main.tsx`]: [`${R}/kernel/react/src/index.ts`],
    [`${R}/kernel/react/src/index.ts`]: [`${R}/kernel/react/src/ui/Cell.tsx`],
    [`${R}/plugins/home/src/client/MainScreen.tsx`]: [
      `${R}/kernel/react/src/ui/Cell.tsx`,
      `${R}/plugins/home/src/client/Rows.tsx`,
      `${R}/plugins/home/src/client/Chart.tsx`,
    ],
    [`${R}/plugins/home/src/client/Rows.tsx`]: [`${R}/kernel/react/src/ui/Badge.tsx`],
    [`${R}/plugins/home/src/client/Chart.tsx`]: [`${R}/node_modules/chart/index.js`],
    [`${R}/plugins/home/src/i18n/en.json`]: [],
    [`${R}/plugins/home/src/i18n/ru.json`]: [],
  },
  [`${R}/host/app/index.html`, `${R}/host/app/launch.html`],
  [
    `${R}/plugins/home/src/client/MainScreen.tsx`,
    `${R}/plugins/home/src/client/Chart.tsx`,
    `${R}/plugins/home/src/i18n/en.json`,
    `${R}/plugins/home/src/i18n/ru.json`,
  ],
)
const { names, elsewhere } = firstBalanceGroups(graph, {
  entry: "host/app/index.html",
  roots: [
    { module: "plugins/home/src/client/MainScreen.tsx", why: "main" },
    { module: "plugins/home/src/i18n/{lang}.json", why: "strings" },
  ],
  languages: ["en", "ru"],
})

describe("firstBalanceGroups (decision 0012)", () => {
  it("puts a root and its static imports in `first`, minus what the entry already loads", () => {
    expect(names.get(`${R}/plugins/home/src/client/MainScreen.tsx`)).toBe("first")
    expect(names.get(`${R}/plugins/home/src/client/Rows.tsx`)).toBe("first")
    expect(names.get(`${R}/kernel/react/src/ui/Badge.tsx`)).toBe("first")
    expect(names.has(`${R}/kernel/react/src/ui/Cell.tsx`)).toBe(false)
  })

  it("stops at a module loaded later with import(): a lazy piece below a root stays lazy", () => {
    expect(names.has(`${R}/plugins/home/src/client/Chart.tsx`)).toBe(false)
    expect(names.has(`${R}/node_modules/chart/index.js`)).toBe(false)
  })

  it("gives each language's strings a chunk of their own", () => {
    expect(names.get(`${R}/plugins/home/src/i18n/en.json`)).toBe("first-en")
    expect(names.get(`${R}/plugins/home/src/i18n/ru.json`)).toBe("first-ru")
  })

  it("keeps what the launch page loads out of the app's chunks, and names what both entries share", () => {
    expect(elsewhere.has(`${R}/host/app/src/launch/main.ts`)).toBe(true)
    expect(elsewhere.has(`${R}/host/app/src/main.tsx`)).toBe(false)
    expect(names.get("\0vite/modulepreload-polyfill.js")).toBe("shared")
  })
})
