import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"

const here = dirname(fileURLToPath(import.meta.url))
const importsOf = (file: string) => [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)\s[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]!)

describe("keyvault boundaries", () => {
  it("the kernel's main entry does not reach the vault (the first screen must not carry it)", () => {
    const seen = new Set<string>()
    const visit = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      for (const spec of importsOf(file)) if (spec.startsWith(".")) visit(resolve(dirname(file), spec))
    }
    visit(join(here, "..", "index.ts"))
    assert.isAbove(seen.size, 5)
    assert.deepStrictEqual(
      [...seen].filter((f) => f.includes(`${join(here)}`)),
      [],
    )
  })

  it("vault code is browser-safe: only effect and its own or kernel files, no node: imports", () => {
    const sources = readdirSync(here).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    assert.include(sources, "vault.ts")
    for (const file of sources) {
      for (const spec of importsOf(join(here, file))) {
        assert.isTrue(
          spec === "effect" || spec.startsWith("./") || spec === "../storage.ts" || spec === "../telegram.ts" || spec === "../bytes.ts",
          `${file} imports ${spec}`,
        )
      }
    }
  })
})
