import { readFileSync } from "node:fs"
import { join } from "node:path"
import { runInNewContext } from "node:vm"
import { afterEach, describe, expect, it } from "vitest"
import { colorSchemeOf, readLaunchParams, themeCssVars } from "@wallet/kernel"
import {
  BOOT_SCRIPT_MARK,
  bootStartScript,
  bootThemeScript,
  bootTotalScript,
  LAUNCH_PARAMS_KEY,
  preloadFiles,
  preloadsAndEntry,
  stylesheetsFirst,
} from "./boot-paint.ts"
import { FIRST_BALANCE_REQUESTS } from "./first-balance-roots.ts"
import { BOOT_FETCHES_GLOBAL, SESSION_STORAGE_KEY, type BootFetch } from "@wallet/kernel"
import { BOOT_PAINT_KEY_PREFIX } from "@wallet/kernel-react"
import { QUERY_CACHE_BUSTER, QUERY_CACHE_MAX_AGE_MS } from "../../../../kernel/react/src/queryTimes.ts"
import { inlineStyleHashes, contentSecurityPolicy } from "../server/security-headers.ts"

const LIGHT = { bg_color: "#ffffff", text_color: "#000000", secondary_bg_color: "#efeff4", section_bg_color: "#ffffff" }
const DARK = { bg_color: "#17212b", text_color: "#f5f5f5", secondary_bg_color: "#232e3c", section_bg_color: "#17212b", bottom_bar_bg_color: "#17212b" }

const hashOf = (theme: object) => `#${new URLSearchParams({ tgWebAppPlatform: "ios", tgWebAppVersion: "8.0", tgWebAppThemeParams: JSON.stringify(theme) })}`

/** Runs the inline script in a bare context (no DOM library): what it leaves on <html>. */
const runScript = (input: { readonly hash: string; readonly pathname: string; readonly stored?: string }) => {
  const vars: Record<string, string> = {}
  const html = { style: { colorScheme: "", setProperty: (name: string, value: string) => void (vars[name] = value) }, dataset: {} as Record<string, string> }
  runInNewContext(bootThemeScript(), {
    location: { hash: input.hash, pathname: input.pathname },
    sessionStorage: { getItem: (key: string) => (key === LAUNCH_PARAMS_KEY ? (input.stored ?? null) : null) },
    document: { documentElement: html },
    URLSearchParams,
  })
  return { vars, scheme: html.dataset.colorScheme, styleScheme: html.style.colorScheme, skeleton: "bootSkeleton" in html.dataset }
}

describe("the boot paint's inline theme script (decision 0007)", () => {
  it("sets the same CSS variables and colour scheme as the kernel, light and dark", () => {
    for (const theme of [LIGHT, DARK]) {
      const painted = runScript({ hash: hashOf(theme), pathname: "/main" })
      expect(painted.vars).toEqual(themeCssVars(theme))
      expect(painted.scheme).toBe(colorSchemeOf(theme))
      expect(painted.styleScheme).toBe(colorSchemeOf(theme))
    }
    expect(runScript({ hash: hashOf(DARK), pathname: "/" }).scheme).toBe("dark")
  })

  it("reads the launch params kept for reloads when the hash has none, under the kernel's key", () => {
    const painted = runScript({ hash: "", pathname: "/main", stored: hashOf(DARK) })
    expect(painted.scheme).toBe("dark")
    expect(painted.vars["--tg-theme-bg-color"]).toBe("#17212b")
  })

  it("shows the skeleton only on the start paths; outside Telegram it paints the light default", () => {
    expect(runScript({ hash: hashOf(LIGHT), pathname: "/" }).skeleton).toBe(true)
    expect(runScript({ hash: hashOf(LIGHT), pathname: "/main" }).skeleton).toBe(true)
    expect(runScript({ hash: hashOf(LIGHT), pathname: "/settings" }).skeleton).toBe(false)
    const outside = runScript({ hash: "", pathname: "/main" })
    expect(outside.scheme).toBe("light")
    expect(outside.vars).toEqual({})
  })

  it("stays under 1 kB and carries no import", () => {
    const script = bootThemeScript()
    expect(script.length).toBeLessThan(1024)
    expect(script).not.toMatch(/\bimport\b/)
  })
})

describe("the boot start script: sign-in and the first requests while the chunks download (decision 0010)", () => {
  const launchHash = `#${new URLSearchParams({ tgWebAppPlatform: "ios", tgWebAppVersion: "8.0", tgWebAppData: "user=%7B%22id%22%3A7%7D&hash=abc" })}`
  /** Runs the script with a fake fetch; init answers `initAnswer`. What it sent, and what it left for the app. */
  const runStart = async (input: { hash?: string; skeleton?: boolean; local?: Record<string, string>; tab?: Record<string, string>; initStatus?: number }) => {
    const sent: Array<{ url: string; method: string; authorization: string }> = []
    const scope: Record<string, unknown> = {
      location: { hash: input.hash ?? launchHash, origin: "https://w.test" },
      document: { documentElement: { dataset: input.skeleton === false ? {} : { bootSkeleton: "" } } },
      localStorage: { getItem: (key: string) => input.local?.[key] ?? null },
      sessionStorage: { getItem: (key: string) => input.tab?.[key] ?? null },
      URLSearchParams,
      JSON,
      encodeURIComponent,
      fetch: (url: string, init: { method: string; headers: { authorization: string } }) => {
        sent.push({ url, method: init.method, authorization: init.headers.authorization })
        const body = url.endsWith("/api/auth/init") ? { access_token: "t1" } : {}
        return Promise.resolve(new Response(JSON.stringify(body), { status: url.endsWith("/api/auth/init") ? (input.initStatus ?? 200) : 200 }))
      },
    }
    scope.window = scope
    runInNewContext(bootStartScript(FIRST_BALANCE_REQUESTS), scope)
    await new Promise((r) => setTimeout(r, 10))
    return { sent, left: scope[BOOT_FETCHES_GLOBAL] as Array<BootFetch> | undefined }
  }

  it("on a cold start sends init with the launch data unmodified, then the first screen's requests with its token", async () => {
    const { sent, left } = await runStart({})
    expect(sent).toEqual([
      { url: "https://w.test/api/auth/init", method: "POST", authorization: "tma user=%7B%22id%22%3A7%7D&hash=abc" },
      { url: "https://w.test/api/custody/accounts?fiatCurrency=USD", method: "GET", authorization: "Bearer t1" },
      { url: "https://w.test/api/custody/frozen-balances?fiatCurrency=USD", method: "GET", authorization: "Bearer t1" },
      { url: "https://w.test/api/view-settings", method: "GET", authorization: "Bearer t1" },
    ])
    // Each is left for the app to adopt, its response unread (init's token came from a copy).
    expect(left?.map((f) => f.url)).toEqual(sent.map((s) => s.url))
    expect((await left![0]!.response).bodyUsed).toBe(false)
  })

  it("asks in the fiat this device chose", async () => {
    const { sent } = await runStart({ local: { "wallet:preferences": JSON.stringify({ v: 1, data: { fiatCurrency: "EUR" } }) } })
    expect(sent[1]!.url).toBe("https://w.test/api/custody/accounts?fiatCurrency=EUR")
  })

  it("sends nothing on a reload or a reopen (a stored session resumes without init), off the start paths, or without launch data", async () => {
    expect((await runStart({ tab: { [SESSION_STORAGE_KEY]: "{}" } })).sent).toEqual([])
    expect((await runStart({ local: { [SESSION_STORAGE_KEY]: "{}" } })).sent).toEqual([])
    expect((await runStart({ skeleton: false })).sent).toEqual([])
    expect((await runStart({ hash: "#tgWebAppPlatform=ios" })).sent).toEqual([])
  })

  it("stops after a refused sign-in: the app makes its own call and shows the error", async () => {
    const { sent } = await runStart({ initStatus: 401 })
    expect(sent.map((s) => s.url)).toEqual(["https://w.test/api/auth/init"])
  })
})

describe("the launch params key", () => {
  const saved = { window: globalThis.window, sessionStorage: globalThis.sessionStorage }
  afterEach(() => Object.assign(globalThis, saved))
  it("is the one readLaunchParams keeps the hash under", () => {
    const store = new Map<string, string>()
    Object.assign(globalThis, {
      window: { location: { hash: hashOf(LIGHT) } },
      sessionStorage: { getItem: (key: string) => store.get(key) ?? null, setItem: (key: string, value: string) => void store.set(key, value) },
    })
    readLaunchParams()
    expect([...store.keys()]).toEqual([LAUNCH_PARAMS_KEY])
  })
})

describe("index.html", () => {
  const html = readFileSync(join(import.meta.dirname, "..", "..", "index.html"), "utf8")
  it("has the script's place before the skeleton's CSS, and a busy skeleton without text inside #root", () => {
    expect(html.indexOf(BOOT_SCRIPT_MARK)).toBeGreaterThan(0)
    expect(html.indexOf(BOOT_SCRIPT_MARK)).toBeLessThan(html.indexOf("<style>"))
    const root = html.match(/<div id="root">([\s\S]*?)<\/div>\s*(?:<!--[^>]*-->\s*)?<script/)![1]!
    expect(root).toContain('aria-busy="true"')
    expect(root.replace(/<[^>]+>/g, "").trim()).toBe("")
  })

  it("its inline style is allowed by the served policy through its hash", () => {
    const hashes = inlineStyleHashes(html)
    expect(hashes).toHaveLength(1)
    expect(contentSecurityPolicy({ dev: false, styleHashes: hashes })).toContain(`style-src 'self' ${hashes[0]}`)
    // Dev allows inline styles outright; a hash beside 'unsafe-inline' would switch it off.
    expect(contentSecurityPolicy({ dev: true, inlineStyles: true, styleHashes: hashes })).toContain("style-src 'self' 'unsafe-inline';")
  })
})

describe("preloadFiles", () => {
  const chunk = (fileName: string, moduleIds: Array<string>, imports: Array<string> = [], css: Array<string> = []) => ({
    type: "chunk" as const,
    fileName,
    moduleIds,
    imports,
    viteMetadata: { importedCss: new Set(css) },
  })
  const bundle = {
    "app.js": chunk("app.js", ["/r/host/app/src/main.tsx"], ["react.js"], ["app.css"]),
    "react.js": chunk("react.js", ["/r/node_modules/react/index.js"]),
    "Main.js": chunk("Main.js", ["/r/plugins/home/src/client/MainScreen.tsx"], ["app.js", "react.js", "Cell.js"], ["Main.css", "app.css"]),
    "Cell.js": chunk("Cell.js", ["/r/kernel/react/src/ui/Cell.tsx?used"], [], ["Cell.css"]),
    "en.js": chunk("en.js", ["/r/plugins/home/src/i18n/en.json"]),
    "ru.js": chunk("ru.js", ["/r/plugins/home/src/i18n/ru.json"]),
    "style.css": { type: "asset" as const, fileName: "style.css" },
  }
  it("takes the listed modules' chunks with their static imports and CSS, minus what the entry loads anyway", () => {
    expect(preloadFiles(bundle, "app.js", ["plugins/home/src/client/MainScreen.tsx", "plugins/home/src/i18n/en.json"])).toEqual({
      scripts: ["Main.js", "Cell.js", "en.js"],
      // Without these Vite's preload helper requests the CSS only when the import runs (#17's waterfall).
      styles: ["Main.css", "Cell.css"],
      missing: [],
    })
  })
  it("matches whole paths from the repo root and names a listed module no chunk holds", () => {
    expect(preloadFiles(bundle, "app.js", ["home/src/client/MainScreen.tsx", "src/i18n/en.json"]).scripts).toEqual(["Main.js", "Cell.js", "en.js"])
    expect(preloadFiles(bundle, "app.js", ["plugins/home/src/client/Renamed.tsx"])).toEqual({
      scripts: [],
      styles: [],
      missing: ["plugins/home/src/client/Renamed.tsx"],
    })
  })
})

describe("stylesheetsFirst", () => {
  it("moves the render-blocking stylesheets in front of the module script and its preloads", () => {
    const html = [
      "<head>",
      "    <style>x</style>",
      '    <script type="module" crossorigin src="/assets/app.js"></script>',
      '    <link rel="modulepreload" crossorigin href="/assets/a.js">',
      '    <link rel="stylesheet" crossorigin href="/assets/ui.css">',
      '    <link rel="stylesheet" crossorigin href="/assets/app.css">',
      "  </head>",
    ].join("\n")
    const out = stylesheetsFirst(html)
    expect(out.indexOf("ui.css")).toBeLessThan(out.indexOf("app.js"))
    expect(out.indexOf("app.css")).toBeLessThan(out.indexOf("app.js"))
    expect(out.match(/rel="stylesheet"/g)).toHaveLength(2)
    expect(out.indexOf("<style>")).toBeLessThan(out.indexOf("ui.css"))
  })
})

describe("preloadsAndEntry (decision 0012)", () => {
  const built = [
    "<head>",
    "    <style>x</style>",
    '    <link rel="stylesheet" crossorigin href="/assets/app.css">',
    '    <script type="module" crossorigin src="/assets/app.js"></script>',
    '    <link rel="modulepreload" crossorigin href="/assets/runtime.js">',
    '    <link rel="preload" as="style" crossorigin href="/assets/first.css">',
    '    <link rel="modulepreload" crossorigin href="/assets/first.js">',
    "  </head>",
    "  <body>",
    '    <div id="root"></div>',
    "  </body>",
  ].join("\n")
  const out = preloadsAndEntry(built)
  const scripts = [...out.matchAll(/<script>(.*?)<\/script>/g)].map((m) => m[1]!)

  /** Runs an inline script against stub globals; what it appended to <head>, and the frame callbacks it left. */
  const run = (script: string, options: { readonly stored?: boolean; readonly hidden?: boolean } = {}) => {
    const appended: Array<Record<string, string>> = []
    const frames: Array<() => void> = []
    const timers: Array<() => void> = []
    const storage = { getItem: (key: string) => (options.stored && key === SESSION_STORAGE_KEY ? "{}" : null) }
    runInNewContext(script, {
      localStorage: storage,
      sessionStorage: { getItem: () => null },
      document: {
        visibilityState: options.hidden ? "hidden" : "visible",
        createElement: (tag: string) => ({ tag }),
        head: { appendChild: (element: Record<string, string>) => void appended.push(element) },
      },
      requestAnimationFrame: (callback: () => void) => void frames.push(callback),
      setTimeout: (callback: () => void) => void timers.push(callback),
    })
    return { appended, frames, timers }
  }

  it("leaves no static preload or entry tag: a script at the top adds the preloads, one at the end the entry", () => {
    expect(out).not.toMatch(/rel="modulepreload"|rel="preload"|type="module"/)
    expect(scripts).toHaveLength(2)
    expect(out.indexOf(scripts[0]!)).toBeLessThan(out.indexOf("app.css"))
    expect(out.indexOf(scripts[1]!)).toBeGreaterThan(out.indexOf('<div id="root">'))
  })

  it("on a cold start preloads the entry, its imports and the first balance's files, in the build's order", () => {
    const { appended } = run(scripts[0]!)
    expect(appended).toEqual([
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/app.js" },
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/runtime.js" },
      { tag: "link", rel: "preload", as: "style", crossOrigin: "", href: "/assets/first.css" },
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/first.js" },
    ])
  })

  it("on a reopen (a stored session) preloads nothing: the HTTP cache has it, and each preload delayed the paint", () => {
    expect(run(scripts[0]!, { stored: true }).appended).toEqual([])
  })

  it("adds the entry only after a frame has been produced, or at once in a hidden page", () => {
    const visible = run(scripts[1]!)
    expect(visible.appended).toEqual([])
    visible.frames.splice(0).forEach((frame) => frame())
    expect(visible.appended).toEqual([])
    visible.timers.splice(0).forEach((timer) => timer())
    expect(visible.appended).toEqual([{ tag: "script", type: "module", crossOrigin: "", src: "/assets/app.js" }])
    expect(run(scripts[1]!, { hidden: true }).appended).toEqual([{ tag: "script", type: "module", crossOrigin: "", src: "/assets/app.js" }])
  })

  it("leaves a document without a module entry (the dev server's) as it is", () => {
    const dev = '<head></head><body><script type="module" src="/src/main.tsx"></script></body>'
    expect(preloadsAndEntry(dev)).toBe(dev)
  })
})

describe("the cached-total script (reopen)", () => {
  /** Runs the inline script against stub globals; returns the skeleton total's element afterwards. */
  const run = (options: { readonly userId?: number; readonly stored?: unknown; readonly skeleton?: boolean }) => {
    const element = {
      textContent: "",
      className: "bp-v",
      attributes: {} as Record<string, string>,
      setAttribute(name: string, value: string) {
        this.attributes[name] = value
      },
    }
    const user = options.userId === undefined ? "" : encodeURIComponent(JSON.stringify({ id: options.userId }))
    const hash = `#tgWebAppPlatform=ios&tgWebAppData=${encodeURIComponent(`user=${user}&hash=x`)}`
    const storage = new Map<string, string>()
    if (options.stored !== undefined) storage.set(`${BOOT_PAINT_KEY_PREFIX}7`, JSON.stringify(options.stored))
    const globals = {
      document: {
        documentElement: { dataset: options.skeleton === false ? {} : { bootSkeleton: "" } },
        getElementById: (id: string) => (id === "bp-total" ? element : null),
      },
      location: { hash },
      sessionStorage: { getItem: () => null },
      localStorage: { getItem: (key: string) => storage.get(key) ?? null },
      URLSearchParams,
      JSON,
      Date,
    }
    new Function(...Object.keys(globals), bootTotalScript())(...Object.values(globals))
    return element
  }

  it("paints the total main last showed this user, as text with the total's test id", () => {
    const element = run({ userId: 7, stored: { t: Date.now() - 1000, total: "$3,661.06", b: QUERY_CACHE_BUSTER } })
    expect(element.textContent).toBe("$3,661.06")
    expect(element.className).toBe("bp-vt")
    expect(element.attributes["data-testid"]).toBe("total-balance")
  })

  it("paints nothing for another user, an expired snapshot, a malformed one, or off the start paths", () => {
    expect(run({ userId: 8, stored: { t: Date.now(), total: "$1.00", b: QUERY_CACHE_BUSTER } }).textContent).toBe("")
    expect(run({ userId: 7, stored: { t: Date.now() - QUERY_CACHE_MAX_AGE_MS - 1, total: "$1.00", b: QUERY_CACHE_BUSTER } }).textContent).toBe("")
    expect(run({ userId: 7, stored: { t: Date.now(), total: 5, b: QUERY_CACHE_BUSTER } }).textContent).toBe("")
    // Written before an update that changed the cache's buster: that update drops the cache, the HTML paints no old total.
    expect(run({ userId: 7, stored: { t: Date.now(), total: "$1.00", b: "0.0.1" } }).textContent).toBe("")
    expect(run({ userId: 7, stored: { t: Date.now(), total: "$1.00", b: QUERY_CACHE_BUSTER }, skeleton: false }).textContent).toBe("")
    expect(run({ stored: { t: Date.now(), total: "$1.00", b: QUERY_CACHE_BUSTER } }).textContent).toBe("")
  })
})
