import { gzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { FIRST_SCREEN_BUDGET_KB, libraryOf, sharesOf, verdictOf } from "./first-screen.ts"

const root = "/repo"
const pnpm = (pkg: string, file: string) => `/repo/node_modules/.pnpm/${pkg.replace("/", "+")}@1.0.0/node_modules/${pkg}/${file}`

describe("first-screen size suite", () => {
  it("names the library of each module: packages, effect's Schema family, workspace folders", () => {
    expect(libraryOf(pnpm("react-dom", "cjs/react-dom-client.production.js"), root)).toBe("react-dom")
    expect(libraryOf(pnpm("@tanstack/query-core", "build/modern/query.js"), root)).toBe("@tanstack/query-core")
    expect(libraryOf(pnpm("effect", "dist/Schema.js"), root)).toBe("effect Schema")
    expect(libraryOf(pnpm("effect", "dist/SchemaAST.js"), root)).toBe("effect Schema")
    expect(libraryOf(pnpm("effect", "dist/internal/schema/toCodec.js"), root)).toBe("effect Schema")
    expect(libraryOf(pnpm("effect", "dist/internal/effect.js"), root)).toBe("effect")
    expect(libraryOf("/repo/kernel/core/src/check.ts", root)).toBe("kernel/core")
    expect(libraryOf("/repo/plugins/home/src/client/MainScreen.tsx", root)).toBe("plugins/home")
    expect(libraryOf("\0vite/preload-helper.js", root)).toBe("other")
  })

  it("scales the shares to the measured total, heaviest first", () => {
    const modules = [
      { id: pnpm("react-dom", "a.js"), code: "x".repeat(4000) + Math.random() },
      { id: pnpm("i18next", "b.js"), code: Array.from({ length: 300 }, (_, i) => `k${i}`).join(",") },
      { id: "/repo/kernel/core/src/i18n.ts", code: "export const a = 1" },
    ]
    const shares = sharesOf(modules, root, 10_000, (text) => gzipSync(text).length)
    expect(shares.map((s) => s.library).sort()).toEqual(["i18next", "kernel/core", "react-dom"])
    expect(Math.abs(shares.reduce((n, s) => n + s.bytes, 0) - 10_000)).toBeLessThanOrEqual(2)
    expect(shares[0]!.bytes).toBeGreaterThanOrEqual(shares[1]!.bytes)
  })

  it("fails above the budget, with TON code or with Effect Schema on the first screen", () => {
    expect(FIRST_SCREEN_BUDGET_KB).toBe(210)
    // kB of 1000 bytes, as the browser counts them.
    expect(verdictOf({ totalBytes: 210_000, tonModules: 0, schemaModules: 0 })).toEqual({ ok: true, problems: [] })
    expect(verdictOf({ totalBytes: 210_001, tonModules: 0, schemaModules: 0 }).problems).toEqual([
      "210.0 kB before the first balance is over the 210 kB budget",
    ])
    expect(verdictOf({ totalBytes: 1, tonModules: 3, schemaModules: 0 }).problems).toEqual(["3 TON library modules on the first screen"])
    expect(verdictOf({ totalBytes: 1, tonModules: 0, schemaModules: 2 }).ok).toBe(false)
  })
})
