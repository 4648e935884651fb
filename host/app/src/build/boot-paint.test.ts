import { readFileSync } from "node:fs"
import { join } from "node:path"
import { runInNewContext } from "node:vm"
import { afterEach, describe, expect, it } from "vitest"
import { colorSchemeOf, readLaunchParams, themeCssVars } from "@wallet/kernel"
import { BOOT_SCRIPT_MARK, bootStartScript, bootThemeScript, bootTotalScript, LAUNCH_PARAMS_KEY, preloadFiles, preloadsAndEntry } from "./boot-paint.ts"
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

  /**
   * Runs an inline script against stub globals; what it appended to <head>, the frame and timer
   * callbacks it left, and what it formatted. `sheets`: the stylesheet links already in <head> (as the
   * top script left them), `loaded` whether each has loaded.
   */
  const run = (
    script: string,
    options: { readonly stored?: boolean; readonly hidden?: boolean; readonly sheets?: ReadonlyArray<{ loaded: boolean }> } = {},
  ) => {
    const appended: Array<Record<string, unknown>> = []
    const frames: Array<() => void> = []
    const timers: Array<() => void> = []
    const formatted: Array<{ readonly value: number; readonly entryAdded: boolean }> = []
    const listeners: Array<{ readonly type: string; readonly listener: () => void }> = []
    const sheets = (options.sheets ?? []).map((sheet) => ({
      get sheet() {
        return sheet.loaded ? {} : null
      },
      addEventListener: (type: string, listener: () => void) => void listeners.push({ type, listener }),
    }))
    const storage = { getItem: (key: string) => (options.stored && key === SESSION_STORAGE_KEY ? "{}" : null) }
    runInNewContext(script, {
      localStorage: storage,
      sessionStorage: { getItem: () => null },
      document: {
        visibilityState: options.hidden ? "hidden" : "visible",
        createElement: (tag: string) => ({
          tag,
          setAttribute(name: string, value: string) {
            ;(this as Record<string, unknown>)[`@${name}`] = value
          },
        }),
        head: { appendChild: (element: Record<string, unknown>) => void appended.push(element) },
        querySelectorAll: (selector: string) => (selector === "link[data-boot-css]" ? sheets : []),
      },
      requestAnimationFrame: (callback: () => void) => void frames.push(callback),
      setTimeout: (callback: () => void) => void timers.push(callback),
      Intl: {
        NumberFormat: class {
          format(value: number) {
            formatted.push({ value, entryAdded: appended.some((element) => element.tag === "script") })
            return String(value)
          }
        },
      },
    })
    /** Fires what is waiting: the frame, then the timer it set; `sheets` fires each stylesheet's `load` or `error`. */
    const settle = (what: { readonly frame?: boolean; readonly sheets?: "load" | "error" }) => {
      if (what.frame) {
        frames.splice(0).forEach((frame) => frame())
        timers.splice(0).forEach((timer) => timer())
      }
      if (what.sheets) for (const { type, listener } of listeners.splice(0)) if (type === what.sheets) listener()
    }
    /** The appended elements' fields, without the stub's `setAttribute`. */
    const plain = () => appended.map((element) => Object.fromEntries(Object.entries(element).filter(([key]) => key !== "setAttribute")))
    return { appended: plain, settle, formatted }
  }

  it("leaves no static stylesheet, preload or entry tag: a script in <head> adds the first two, one at the end the entry", () => {
    expect(out).not.toMatch(/rel="stylesheet"|rel="modulepreload"|rel="preload"|type="module"/)
    expect(scripts).toHaveLength(2)
    expect(out.indexOf(scripts[0]!)).toBeGreaterThan(out.indexOf("<style>x</style>"))
    expect(out.indexOf(scripts[0]!)).toBeLessThan(out.indexOf("</head>"))
    expect(out.indexOf(scripts[1]!)).toBeGreaterThan(out.indexOf('<div id="root">'))
  })

  it("adds the app's stylesheet from a script on every start, so it blocks neither the first paint nor the cached total", () => {
    const stylesheet = { tag: "link", rel: "stylesheet", crossOrigin: "", href: "/assets/app.css", "@data-boot-css": "" }
    expect(run(scripts[0]!).appended()[0]).toEqual(stylesheet)
    expect(run(scripts[0]!, { stored: true }).appended()).toEqual([stylesheet])
  })

  it("on a cold start preloads the entry, its imports and the first balance's files, in the build's order", () => {
    expect(run(scripts[0]!).appended().slice(1)).toEqual([
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/app.js" },
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/runtime.js" },
      { tag: "link", rel: "preload", as: "style", crossOrigin: "", href: "/assets/first.css" },
      { tag: "link", rel: "modulepreload", crossOrigin: "", href: "/assets/first.js" },
    ])
  })

  const entryScript = { tag: "script", type: "module", crossOrigin: "", src: "/assets/app.js" }

  it("adds the entry only after a frame has been produced, or at once in a hidden page", () => {
    const visible = run(scripts[1]!)
    expect(visible.appended()).toEqual([])
    visible.settle({ frame: true })
    expect(visible.appended()).toEqual([entryScript])
    expect(run(scripts[1]!, { hidden: true }).appended()).toEqual([entryScript])
  })

  it("adds the entry only once the stylesheet has loaded (the app never renders unstyled), and after an error too", () => {
    const loading = run(scripts[1]!, { sheets: [{ loaded: true }, { loaded: false }] })
    loading.settle({ frame: true })
    expect(loading.appended()).toEqual([])
    loading.settle({ sheets: "load" })
    expect(loading.appended()).toEqual([entryScript])

    const hidden = run(scripts[1]!, { hidden: true, sheets: [{ loaded: false }] })
    expect(hidden.appended()).toEqual([])
    hidden.settle({ sheets: "error" })
    expect(hidden.appended()).toEqual([entryScript])

    const loaded = run(scripts[1]!, { sheets: [{ loaded: true }] })
    loaded.settle({ frame: true })
    expect(loaded.appended()).toEqual([entryScript])
  })

  it("loads ICU's data with one number format right after adding the entry, so it runs while the entry downloads", () => {
    const visible = run(scripts[1]!)
    expect(visible.formatted).toEqual([])
    visible.settle({ frame: true })
    expect(visible.formatted).toEqual([{ value: 0, entryAdded: true }])
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
