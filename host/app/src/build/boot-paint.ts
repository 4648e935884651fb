/**
 * Paint before the JavaScript (decision 0007). index.html carries wallet main's skeleton and its
 * critical CSS; this Vite plugin puts in front of them a tiny inline script that applies Telegram's
 * theme from the launch parameters before the first paint, and preloads the first screen's chunks.
 *
 * One source of truth for the theme: the inline script is generated here from the kernel's own
 * `themeCssVars` and `colorSchemeOf` (their compiled source, minified), so the HTML paint and the app
 * set the same CSS variables and colour scheme. boot-paint.test.ts runs the script against the kernel.
 */
import type { Plugin } from "vite"
import { minifySync } from "vite"
import { colorSchemeOf, themeCssVars } from "../../../../kernel/core/src/telegram/launch.ts"
import { START_PATHS } from "../boot-start.ts"
import { BOOT_PAINT_KEY_PREFIX } from "../../../../kernel/react/src/bootPaint.ts"
import { QUERY_CACHE_BUSTER, QUERY_CACHE_MAX_AGE_MS } from "../../../../kernel/react/src/queryTimes.ts"
import { SESSION_STORAGE_KEY } from "../../../../kernel/core/src/session.ts"
import { BOOT_FETCHES_GLOBAL } from "../../../../kernel/core/src/boot-fetch.ts"
import { DEFAULT_FIAT_CURRENCY, PreferencesStore } from "../../../../kernel/core/src/preferences.ts"
import { STORAGE_PREFIX } from "../../../../kernel/core/src/storage.ts"

/** Where readLaunchParams keeps the first hash for reloads (kernel/core/src/telegram/launch.ts; a test checks they agree). */
export const LAUNCH_PARAMS_KEY = "wallet:launch-params"

/** index.html's placeholder the script replaces. */
export const BOOT_SCRIPT_MARK = "<!-- boot-theme-script -->"

/**
 * The inline script: Telegram's theme params from the URL hash (or the hash kept for reloads) as the
 * kit's `--tg-theme-*` variables and `data-color-scheme` on <html>; `data-boot-skeleton` on the start
 * paths, where index.html shows wallet main's skeleton (elsewhere: the plain background). No imports,
 * no globals left behind; any failure leaves the default light palette.
 */
export const bootThemeScript = (): string => {
  const source = `(function(){try{
var cssVars=(${themeCssVars.toString()}),schemeOf=(${colorSchemeOf.toString()});
var p=new URLSearchParams(location.hash.slice(1));
if(!p.get("tgWebAppPlatform"))p=new URLSearchParams((sessionStorage.getItem(${JSON.stringify(LAUNCH_PARAMS_KEY)})||"").replace(/^#/,""));
var theme=JSON.parse(p.get("tgWebAppThemeParams")||"{}"),html=document.documentElement,vars=cssVars(theme);
for(var name in vars)html.style.setProperty(name,vars[name]);
var scheme=schemeOf(theme);html.dataset.colorScheme=scheme;html.style.colorScheme=scheme;
if(${JSON.stringify(START_PATHS)}.indexOf(location.pathname)>=0)html.dataset.bootSkeleton="";
}catch(e){}})()`
  return minified("boot-theme.js", source)
}

/**
 * The third inline script, right after the theme one (decision 0010): on a cold start at a start path
 * (Telegram's signed launch data in the hash, no stored session on this tab or device) it sends
 * sign-in (`POST /api/auth/init`, the launch data unmodified) and, with the access token of its
 * answer, the first screen's requests (`requests`, `{fiat}` = the device's fiat or USD), all while the
 * chunks download. It only starts requests: it reads the answer's token from a copy and leaves the
 * responses on `window` for the app, which adopts each when it makes the same call (boot-fetch.ts in
 * the kernel) and drops the rest. A reload or a reopen (a stored session) sends nothing: the app
 * resumes without init (decision 0008).
 */
export const bootStartScript = (requests: ReadonlyArray<string>): string => {
  const source = `(function(){try{
var html=document.documentElement;if(!("bootSkeleton" in html.dataset))return;
var data=new URLSearchParams(location.hash.slice(1)).get("tgWebAppData");if(!data)return;
if(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)})||sessionStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)}))return;
var fiat=${JSON.stringify(DEFAULT_FIAT_CURRENCY)};
try{var pref=JSON.parse(localStorage.getItem(${JSON.stringify(STORAGE_PREFIX + PreferencesStore.key)})||"null");
if(pref&&pref.data&&/^[A-Z]{3}$/.test(pref.data.fiatCurrency))fiat=pref.data.fiatCurrency}catch(e){}
var sent=[],origin=location.origin;
var send=function(path,method,authorization){
var response=fetch(origin+path,{method:method,headers:{authorization:authorization}});
response.catch(function(){});
sent.push({url:origin+path,method:method,authorization:authorization,response:response});
return response};
window[${JSON.stringify(BOOT_FETCHES_GLOBAL)}]=sent;
send("/api/auth/init","POST","tma "+data).then(function(r){return r.ok?r.clone().json():null}).then(function(a){
if(!a||typeof a.access_token!=="string")return;
var paths=${JSON.stringify(requests)};
for(var i=0;i<paths.length;i++)send(paths[i].replace("{fiat}",encodeURIComponent(fiat)),"GET","Bearer "+a.access_token)
}).catch(function(){});
}catch(e){}})()`
  return minified("boot-start.js", source)
}

/** index.html's placeholder (after the skeleton) for the cached-total script. */
export const BOOT_TOTAL_MARK = "<!-- boot-total-script -->"

/**
 * The second inline script, right after the skeleton: on a reopen it writes the total wallet main
 * last showed this Telegram user (`wallet:boot-paint:<id>`, kept by home, at most as old as the
 * persisted query cache may be) into the skeleton's total as text, before any JavaScript loads. The
 * user id comes from the launch data (unsigned here, but it only picks which of this device's own
 * snapshots to show; logout and another user's sign-in remove them). A snapshot written under another
 * cache buster is not painted: that update drops the persisted cache, and the app shows no old total.
 */
export const bootTotalScript = (): string => {
  const source = `(function(){try{
var html=document.documentElement;if(!("bootSkeleton" in html.dataset))return;
var p=new URLSearchParams(location.hash.slice(1));
if(!p.get("tgWebAppData"))p=new URLSearchParams((sessionStorage.getItem(${JSON.stringify(LAUNCH_PARAMS_KEY)})||"").replace(/^#/,""));
var user=JSON.parse(new URLSearchParams(p.get("tgWebAppData")||"").get("user")||"{}");
if(typeof user.id!=="number")return;
var s=JSON.parse(localStorage.getItem(${JSON.stringify(BOOT_PAINT_KEY_PREFIX)}+user.id)||"null");
if(!s||typeof s.total!=="string"||typeof s.t!=="number"||Date.now()-s.t>${QUERY_CACHE_MAX_AGE_MS}||s.b!==${JSON.stringify(QUERY_CACHE_BUSTER)})return;
var e=document.getElementById("bp-total");if(!e)return;
e.textContent=s.total;e.className="bp-vt";e.setAttribute("data-testid","total-balance");
}catch(e){}})()`
  return minified("boot-total.js", source)
}

/**
 * The first screen's modules the HTML preloads: the modules of the first balance's list
 * (first-balance-roots.ts, with the English strings; the launch language's strings are only known at
 * run time, and main.tsx starts their load at the top of boot), as paths from the repo root.
 */
export interface PreloadOptions {
  readonly modules: ReadonlyArray<string>
  /** The first screen's requests the boot script sends on a cold start (FIRST_BALANCE_REQUESTS). */
  readonly requests: ReadonlyArray<string>
}

interface ChunkLike {
  readonly type: "chunk" | "asset"
  readonly fileName: string
  readonly moduleIds?: ReadonlyArray<string>
  readonly imports?: ReadonlyArray<string>
  readonly isEntry?: boolean
  /** Vite's record of the CSS files a chunk brings (loaded with it by Vite's preload helper). */
  readonly viteMetadata?: { readonly importedCss: ReadonlySet<string> }
}

export interface Preloads {
  /** Chunks for `<link rel="modulepreload">`. */
  readonly scripts: ReadonlyArray<string>
  /**
   * Their stylesheets, for `<link rel="preload" as="style">`: Vite's preload helper holds a dynamic
   * import until the chunk's CSS has loaded, so without these the CSS is requested only when the
   * import runs, one more round trip on the path to the balance. Preloaded, not applied: the first
   * paint does not wait for them.
   */
  readonly styles: ReadonlyArray<string>
}

/** Whether a module id (absolute, maybe with a query) is the module at `path` from the repo root. */
export const isModule = (id: string, path: string) => id.split("?")[0]!.endsWith(`/${path}`)

/**
 * The files to preload: every chunk holding a listed module, with its static imports and their CSS,
 * minus what the entry already loads (the entry's own static imports are preloaded by Vite, its CSS
 * is linked). `missing` names listed modules no chunk holds (a rename: the list must follow).
 */
export const preloadFiles = (
  bundle: Readonly<Record<string, ChunkLike>>,
  entryFile: string,
  modules: ReadonlyArray<string>,
): Preloads & { readonly missing: ReadonlyArray<string> } => {
  const chunks = Object.values(bundle).filter((item) => item.type === "chunk")
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
  const reach = (file: string, into: Set<string>) => {
    if (into.has(file)) return
    into.add(file)
    for (const dep of byFile.get(file)?.imports ?? []) reach(dep, into)
  }
  const entry = new Set<string>()
  reach(entryFile, entry)
  const wanted = new Set<string>()
  const missing: Array<string> = []
  for (const path of modules) {
    const holders = chunks.filter((chunk) => chunk.moduleIds?.some((id) => isModule(id, path)))
    if (holders.length === 0) missing.push(path)
    for (const chunk of holders) reach(chunk.fileName, wanted)
  }
  const cssOf = (files: Iterable<string>) => new Set([...files].flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]))
  const entryCss = cssOf(entry)
  return {
    scripts: [...wanted].filter((file) => !entry.has(file)),
    styles: [...cssOf(wanted)].filter((file) => !entryCss.has(file)),
    missing,
  }
}

/**
 * The preloads and the entry, timed for a cold start and a reopen (decisions 0010, 0012). Every
 * preload link is a request the HTML parser makes on the main thread before it parses the skeleton;
 * on a reopen, where all of them come from the HTTP cache, they only delayed the first paint (and
 * with it the cached total). And a module script already in the cache runs as soon as the document is
 * parsed, in one long task that holds the paint back too.
 *
 * So the static `modulepreload` and `preload` links become a list that an inline script at the top of
 * the document adds on a cold start (no stored session on this tab or device), at once, as the links
 * did; on a reopen it adds none. The entry's `<script type="module">` becomes an inline script at the
 * end of the body that adds it once a frame has been produced (at once in a hidden page, where no frame
 * comes).
 *
 * Right after adding the entry, that script formats a number once. The first `Intl` formatter a page
 * creates loads ICU's data: about 200 ms of main thread at 4x CPU, paid by whichever of the app's
 * formatters comes first (the analytics time zone, the balance). Paid here instead, it runs while the
 * entry downloads on a cold start, when the main thread is otherwise idle.
 */
export const preloadsAndEntry = (html: string): string => {
  const entry = /[ \t]*<script type="module" crossorigin src="([^"]+)"><\/script>\n?/.exec(html)
  if (!entry) return html
  const links: Array<{ readonly as?: string; readonly href: string }> = [{ href: entry[1]! }]
  let rest = html.replace(entry[0], "")
  for (const link of rest.matchAll(/[ \t]*<link rel="(modulepreload|preload)"(?: as="(\w+)")? crossorigin href="([^"]+)">\n?/g)) {
    links.push(link[1] === "preload" ? { as: link[2]!, href: link[3]! } : { href: link[3]! })
    rest = rest.replace(link[0], "")
  }
  const stylesheets: Array<string> = []
  for (const link of rest.matchAll(/[ \t]*<link rel="stylesheet" crossorigin href="([^"]+)">\n?/g)) {
    stylesheets.push(link[1]!)
    rest = rest.replace(link[0], "")
  }
  const preload = minified(
    "boot-preload.js",
    `(function(){var css=${JSON.stringify(stylesheets)};
for(var j=0;j<css.length;j++){var c=document.createElement("link");c.rel="stylesheet";c.crossOrigin="";c.href=css[j];c.setAttribute("data-boot-css","");document.head.appendChild(c)}
var reopen=false;
try{reopen=!!(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)})||sessionStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)}))}catch(e){}
if(reopen)return;
var links=${JSON.stringify(links)};
for(var i=0;i<links.length;i++){var l=document.createElement("link");
if(links[i].as){l.rel="preload";l.as=links[i].as}else l.rel="modulepreload";
l.crossOrigin="";l.href=links[i].href;document.head.appendChild(l)}})()`,
  )
  const start = minified(
    "boot-entry.js",
    `(function(){var go=function(){var s=document.createElement("script");s.type="module";s.crossOrigin="";s.src=${JSON.stringify(entry[1])};document.head.appendChild(s);
try{new Intl.NumberFormat().format(0)}catch(e){}};
var css=document.querySelectorAll("link[data-boot-css]"),waiting=1,ready=function(){if(--waiting===0)go()};
for(var i=0;i<css.length;i++)if(!css[i].sheet){waiting++;css[i].addEventListener("load",ready);css[i].addEventListener("error",ready)}
if(document.visibilityState==="hidden"||typeof requestAnimationFrame!=="function")ready();else requestAnimationFrame(function(){setTimeout(ready,0)})})()`,
  )
  const at = rest.indexOf("</head>")
  const withPreload = `${rest.slice(0, at)}    <script>${preload}</script>\n${rest.slice(at)}`
  return withPreload.replace("</body>", `  <script>${start}</script>\n  </body>`)
}

/** An inline script's source, minified; a syntax error fails the build. */
const minified = (name: string, source: string): string => {
  const result = minifySync(name, source, { compress: true, mangle: true })
  if (result.errors.length > 0) throw new Error(`${name}: ${result.errors.map((e) => e.message).join("; ")}`)
  return result.code.trim()
}

/** `plugins: [bootPaint({ modules: [...] })]` in host/app/vite.config.ts (the first balance's list). */
export function bootPaint(options: PreloadOptions): Plugin {
  let base = "/"
  return {
    name: "wallet-boot-paint",
    configResolved(config) {
      base = config.base
    },
    transformIndexHtml: {
      order: "post",
      handler(html, context) {
        if (!html.includes(BOOT_SCRIPT_MARK)) return html
        const withScript = html
          .replace(BOOT_SCRIPT_MARK, `<script>${bootThemeScript()}</script>\n    <script>${bootStartScript(options.requests)}</script>`)
          .replace(BOOT_TOTAL_MARK, `<script>${bootTotalScript()}</script>`)
        const bundle = context.bundle as Readonly<Record<string, ChunkLike>> | undefined
        const entry = context.chunk as ChunkLike | undefined
        if (!bundle || !entry) return withScript
        const preloads = preloadFiles(bundle, entry.fileName, options.modules)
        if (preloads.missing.length > 0) {
          this.error(`boot paint: no chunk holds ${preloads.missing.join(", ")} (first-balance-roots.ts must follow the rename)`)
        }
        const links = [
          ...preloads.styles.map((file) => `<link rel="preload" as="style" crossorigin href="${base}${file}">`),
          ...preloads.scripts.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
        ].join("\n    ")
        const withPreloads = links ? withScript.replace("</head>", `    ${links}\n  </head>`) : withScript
        return preloadsAndEntry(withPreloads)
      },
    },
  }
}
