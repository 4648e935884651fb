/**
 * A host folder under test (decision 0150): this repo's checkout, a copy of it with outside plugins
 * installed, or a plugin author's host. Everything is parametrised by the host's root: its app is
 * built with its own Vite, its API server and its devnet run as its own processes (the region files
 * and `node_modules` of that root decide the plugins), so the kit depends on no host package.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type Browser } from "playwright-core"
import { preview, type PreviewServer } from "vite"
import { CHROMIUM, CHROMIUM_ARGS, openAs, type LaunchedApp, type LaunchOptions } from "./browser.ts"
import type { DemoUserKind } from "./demo-users.ts"

/**
 * Node options of a host process: TypeScript through the host's tsx and the workspace's `source`
 * condition (decision 0110; installed packages have no `source` and resolve to their dist/).
 */
const hostNodeArgs = ["--conditions=source", "--import", "tsx"]

/** The calling test run's NODE_OPTIONS dropped: the host's own resolution decides. */
const hostEnv = (extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra }
  delete env.NODE_OPTIONS
  return env
}

export interface HostProcess {
  readonly url: string
  /** Everything the process printed so far. */
  readonly output: () => string
  close(): Promise<void>
}

/**
 * Spawns `node <args>` in `root` and resolves once its output matches `ready` (group 1: the URL);
 * rejects with the output when it exits first.
 */
const spawnUntilReady = (
  root: string,
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  what: string,
  cleanup: () => void = () => undefined,
): Promise<HostProcess & { readonly child: ChildProcess }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    let isReady = false
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = ready.exec(output)
      if (match && !isReady) {
        isReady = true
        resolve({
          child,
          url: match[1]!,
          output: () => output,
          close: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
            await exited
            cleanup()
          },
        })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.once("exit", (code) => {
      if (!isReady) {
        cleanup()
        reject(new Error(`${what} exited (${code}) before it was ready:\n${output}`))
      }
    })
  })

export interface HostServerOptions {
  /** The region file (`host/regions/<region>.ts`); default "default". */
  readonly region?: string
  /** The chain API (a devnet's URL); default the host's own default (the local devnet on :8091). */
  readonly chainApiUrl?: string
  /** A bot token of your own; default the host's dev bot token (read from the server's output). */
  readonly botToken?: string
  readonly env?: Readonly<Record<string, string>>
}

export interface HostServerProcess extends HostProcess {
  /** The bot token the server checks initData with: sign with it (`signInitData(user, server.botToken)`). */
  readonly botToken: string
}

/**
 * Boots `<root>/host/server/src/main.ts` (dev mode, in-memory PGlite, a free port, `region`) and
 * resolves once it prints `api ready <url>`; rejects with its output when it exits first (a
 * composition conflict: `[api] failed to start: <message>`).
 */
export const startHostServer = async (root: string, options: HostServerOptions = {}): Promise<HostServerProcess> => {
  const env = hostEnv({
    WALLET_DEV: "1",
    PORT: "0",
    WALLET_DATA_DIR: "memory",
    REGION: options.region ?? "default",
    ...(options.chainApiUrl !== undefined ? { CHAIN_API_URL: options.chainApiUrl } : {}),
    ...(options.botToken !== undefined ? { BOT_TOKEN: options.botToken } : {}),
    ...options.env,
  })
  const started = await spawnUntilReady(root, [...hostNodeArgs, join(root, "host/server/src/main.ts")], env, /api ready (http:\/\/\S+)/, "host server")
  // A dev server without BOT_TOKEN prints its dev token (not a secret; WALLET_DEV only).
  const botToken = options.botToken ?? /dev bot token[^:]*: (\S+)/.exec(started.output())?.[1]
  if (botToken === undefined) {
    await started.close()
    throw new Error(`the host server printed no dev bot token; pass botToken:\n${started.output()}`)
  }
  return { url: started.url, botToken, output: started.output, close: started.close }
}

export interface HostDevnetOptions {
  /** Block interval (default 400 ms: tests wait for blocks). */
  readonly blockMs?: number
}

/**
 * Boots `<root>/host/devnet/src/main.ts` (the local TON devnet and the simulated networks) on a free
 * port with its data in a fresh temporary folder (removed on close).
 */
export const startHostDevnet = (root: string, options: HostDevnetOptions = {}): Promise<HostProcess> => {
  const dataDir = mkdtempSync(join(tmpdir(), "wallet-devnet-"))
  const args = [...hostNodeArgs, join(root, "host/devnet/src/main.ts"), "--port", "0", "--data-dir", dataDir, "--block-ms", String(options.blockMs ?? 400)]
  return spawnUntilReady(root, args, hostEnv(), /devnet ready (http:\/\/\S+)/, "host devnet", () => rmSync(dataDir, { recursive: true, force: true }))
}

/** `vite build <root>/host/app` with the host's own Vite; returns its status and output (a conflict fails it). */
export const buildHostApp = (
  root: string,
  options: { readonly env?: Readonly<Record<string, string>> } = {},
): { readonly ok: boolean; readonly output: string } => {
  const run = spawnSync(process.execPath, [join(root, "node_modules/vite/bin/vite.js"), "build", "host/app", "--logLevel", "warn"], {
    cwd: root,
    env: hostEnv(options.env),
    encoding: "utf8",
  })
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` }
}

export interface HostStack {
  readonly server: { readonly url: string }
  readonly appUrl: string
  readonly browser: Browser
  close(): Promise<void>
}

/**
 * The built app of `<root>/host/app` served by Vite preview (/api and /bridge proxied to
 * `serverUrl`, /v2 to `devnetUrl` when given), and Chromium.
 */
export async function previewHost(root: string, serverUrl: string, options: { readonly devnetUrl?: string } = {}): Promise<HostStack> {
  const appRoot = join(root, "host", "app")
  if (!existsSync(join(appRoot, "dist", "index.html"))) throw new Error(`${appRoot}/dist is not built: run buildHostApp(root) first`)
  // configFile false: the built files need no plugins, and this process cannot load the host's config.
  const app: PreviewServer = await preview({
    root: appRoot,
    configFile: false,
    logLevel: "warn",
    preview: {
      port: 0,
      strictPort: false,
      host: "127.0.0.1",
      proxy: { "/api": serverUrl, "/bridge": serverUrl, ...(options.devnetUrl !== undefined ? { "/v2": options.devnetUrl } : {}) },
    },
  })
  try {
    const appUrl = app.resolvedUrls?.local[0]?.replace(/\/$/, "")
    if (!appUrl) throw new Error("vite preview did not report a URL")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })
    return {
      server: { url: serverUrl },
      appUrl,
      browser,
      close: async () => {
        await browser.close()
        await app.close()
      },
    }
  } catch (error) {
    await app.close()
    throw error
  }
}

export interface StartHostOptions extends Omit<HostServerOptions, "chainApiUrl"> {
  /** Start the host's devnet too and point the server and the app's /v2 at it. */
  readonly devnet?: boolean | HostDevnetOptions
  /** Build the app first: "missing" (default) when `host/app/dist` is absent, "always", or "never". */
  readonly build?: "missing" | "always" | "never"
}

export interface Host extends HostStack {
  readonly server: HostServerProcess
  readonly devnet: HostProcess | undefined
  /** Opens the app in a fresh browser profile as a demo user. */
  openAs(user: DemoUserKind, options?: Omit<LaunchOptions, "user">): Promise<LaunchedApp>
}

/** The whole host: (its devnet,) its server, its built app under preview and Chromium. `close()` stops all. */
export async function startHost(root: string, options: StartHostOptions = {}): Promise<Host> {
  const build = options.build ?? "missing"
  if (build === "always" || (build === "missing" && !existsSync(join(root, "host/app/dist/index.html")))) {
    const built = buildHostApp(root)
    if (!built.ok) throw new Error(`the host app did not build:\n${built.output}`)
  }
  const devnet = options.devnet ? await startHostDevnet(root, typeof options.devnet === "object" ? options.devnet : {}) : undefined
  let server: HostServerProcess | undefined
  try {
    server = await startHostServer(root, { ...options, ...(devnet ? { chainApiUrl: devnet.url } : {}) })
    const stack = await previewHost(root, server.url, devnet ? { devnetUrl: devnet.url } : {})
    const running = server
    const host: Host = {
      server: running,
      devnet,
      appUrl: stack.appUrl,
      browser: stack.browser,
      openAs: (user, launchOptions) => openAs(host, user, launchOptions),
      close: async () => {
        await stack.close()
        await running.close()
        await devnet?.close()
      },
    }
    return host
  } catch (error) {
    await server?.close()
    await devnet?.close()
    throw error
  }
}
