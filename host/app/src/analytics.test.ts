import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { composePlugins, KERNEL_ANALYTICS_EVENTS } from "@wallet/kernel"
import { loadInstalledPlugins, regionById } from "@wallet/regions"

const composition = composePlugins({ region: regionById("default"), installed: await loadInstalledPlugins() })
const declared = new Set([...KERNEL_ANALYTICS_EVENTS, ...composition.analyticsEvents].map((event) => event.name))

const root = join(import.meta.dirname, "../../..")
const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "server" ? [] : sources(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : []
  })

/** Every literal event name a screen sends: `.track("x"`, `useTrackEvent("x"` and `<TrackEvent name="x"`. */
const trackedNames = (files: ReadonlyArray<string>) =>
  files.flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/(?:(?:\.track|useTrackEvent)\(\s*|<TrackEvent\s+name=)"([^"]+)"/g)].map((m) => ({
      file: file.slice(root.length + 1),
      name: m[1]!,
    })),
  )

describe("analytics events of the app", () => {
  it("every event a plugin screen or the shell sends is declared by a manifest or the kernel", () => {
    const used = trackedNames([...sources(join(root, "plugins")), ...sources(join(root, "host/app/src"))])
    expect(used.length).toBeGreaterThan(8)
    expect(used.filter((use) => !declared.has(use.name))).toEqual([])
  })

  it("every enabled plugin with screens declares the events its screens send", () => {
    const withScreens = composition.plugins.filter((plugin) => (plugin.routes ?? []).some((route) => route.component))
    for (const plugin of withScreens)
      expect(
        composition.analyticsEvents.some((event) => event.pluginId === plugin.id),
        plugin.id,
      ).toBe(true)
  })

  it("the shell's stand-ins are gone", () => {
    const main = readFileSync(join(root, "host/app/src/main.tsx"), "utf8")
    expect(main).not.toMatch(/console\.info\(["'`]\[(?:analytics|deeplink)\]/)
  })
})
