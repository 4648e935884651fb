import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { KnownBanners, UserFlags } from "./api/kernel.ts"
import { VIEW_SETTINGS_USE } from "./viewSettingsUse.ts"

const root = join(import.meta.dirname, "..", "..", "..")

/** The non-test TypeScript sources under a folder. */
const sources = (dir: string): ReadonlyArray<string> => {
  let entries: ReadonlyArray<string>
  try {
    entries = readdirSync(dir)
  } catch {
    return []
  }
  return entries.flatMap((name) => {
    const path = join(dir, name)
    if (name === "node_modules" || name === "server" || name === "i18n") return []
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".e2e.ts") ? [path] : []
  })
}

/** The client code of a plugin (`plugins/<id>/src` without its server) or of the shell (`host`). */
const codeOf = (owner: string) => (owner === "host" ? sources(join(root, "host", "app", "src")) : sources(join(root, "plugins", owner, "src")))
const plugins = readdirSync(join(root, "plugins")).filter((name) => statSync(join(root, "plugins", name)).isDirectory())
const readers = (key: string): ReadonlyArray<string> =>
  ["host", ...plugins].filter((owner) => codeOf(owner).some((file) => new RegExp(`\\b${key}\\b`).test(readFileSync(file, "utf8"))))

const all = { ...VIEW_SETTINGS_USE.userFlags, ...VIEW_SETTINGS_USE.banners }

describe("view settings acted on (decision 0360)", () => {
  it("lists every user flag and known banner of the contract once", () => {
    expect(Object.keys(VIEW_SETTINGS_USE.userFlags).sort()).toEqual(Object.keys(UserFlags.fields).sort())
    expect(Object.keys(VIEW_SETTINGS_USE.banners).sort()).toEqual([...KnownBanners].sort())
  })

  it("names who acts on each: the acted ones now, the pending ones by the plugin that will", () => {
    const by = (kind: string) =>
      Object.entries(all)
        .filter(([, use]) => kind in use)
        .map(([key]) => key)
        .sort()
    expect(by("actedOnBy")).toEqual([
      "display_change_language_alert",
      "display_change_language_tooltip",
      "display_passcode_banner",
      "display_scw",
      "display_terms_banner",
      "expand_cryptocurrency",
      "send_onboarding_finished",
      "wallet_onboarding_finished",
    ])
    expect(by("pendingPlugin")).toEqual([
      "display_earn_banner",
      "display_kyc_banner",
      "display_stocks_terms_banner",
      "display_stocks_waitlist_banner",
      "display_trading_cell",
      "p2p_express_onboarding_completed",
      "p2p_onboarding_completed",
    ])
  })

  // The source scan: an acted key must be read by its owner's client code, a pending one by nobody's.
  for (const [key, use] of Object.entries(all)) {
    if ("actedOnBy" in use)
      it(`${key} is read by ${use.actedOnBy}`, () => {
        expect(readers(key)).toContain(use.actedOnBy)
      })
    if ("pendingPlugin" in use)
      it(`${key} waits for the ${use.pendingPlugin} plugin: no screen reads it yet (move it to actedOnBy when one does)`, () => {
        expect(readers(key)).toEqual([])
      })
  }
})
