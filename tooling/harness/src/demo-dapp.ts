import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize } from "node:path"
import { build } from "vite"
import type { DemoConfig, DemoWallet } from "../../demo-dapp/src/config.ts"
import { DEMO_PATHS } from "../../demo-dapp/src/config.ts"
import { checkSignData, makeProofService, type CheckResult, type ProofCheckRequest, type SignDataCheckRequest } from "../../demo-dapp/src/proof.ts"
import { demoReceiver } from "../../demo-dapp/src/receiver.ts"

/**
 * The demo TonConnect dApp (tooling/demo-dapp) on a local port: the built page, its
 * tonconnect-manifest.json and icon, a local wallets list, and the dApp backend (one-time ton_proof
 * payloads, the independent ton_proof and signData checks). The page lists this wallet with the
 * stack's bridge and a Telegram-style link, so nothing leaves the machine.
 */
export const demoDappRoot = join(import.meta.dirname, "..", "..", "demo-dapp")
const distDir = join(demoDappRoot, "dist")

export interface DemoDappOptions {
  /** The wallet's bridge, e.g. `${stack.server.url}/bridge`. */
  readonly bridgeUrl: string
  /** Telegram-style link of the mini-app; the SDK turns it into `…?startapp=tonconnect-…`. */
  readonly universalLink?: string
  /** 0.1 TON by default. */
  readonly amountNano?: bigint
  readonly signText?: string
  /** Rebuild the page even when dist looks fresh. */
  readonly rebuild?: boolean
  /** 0 (any free port) unless given. */
  readonly port?: number
}

export interface CheckRecord {
  readonly kind: "ton_proof" | "sign_data"
  readonly result: CheckResult
}

export interface DemoDapp {
  readonly url: string
  /** host:port, the domain the wallet's proofs must name. */
  readonly domain: string
  readonly config: DemoConfig
  /** The receiver of "Send 0.1 TON" (raw form, for balance look-ups). */
  readonly receiverRaw: string
  /** Every proof and signData check the backend made, in order. */
  readonly checks: ReadonlyArray<CheckRecord>
  close(): Promise<void>
}

const newestMtime = (path: string): number => {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs)
}

/** Builds the page when dist is missing or older than its sources. */
export async function buildDemoDapp(force = false): Promise<void> {
  const index = join(distDir, "index.html")
  const sources = ["src", "public", "index.html", "vite.config.ts"].map((p) => join(demoDappRoot, p))
  if (!force && existsSync(index) && statSync(index).mtimeMs >= Math.max(...sources.map(newestMtime))) return
  await build({ root: demoDappRoot, configFile: join(demoDappRoot, "vite.config.ts"), logLevel: "warn" })
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".png": "image/png",
  ".json": "application/json",
}

const readBody = (req: IncomingMessage, limit = 64 * 1024): Promise<string> =>
  new Promise((resolve, reject) => {
    let size = 0
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        reject(new Error("body too large"))
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    req.on("error", reject)
  })

export async function startDemoDapp(options: DemoDappOptions): Promise<DemoDapp> {
  await buildDemoDapp(options.rebuild ?? false)
  const icon = readFileSync(join(demoDappRoot, "public", "icon.png"))
  const receiver = demoReceiver()
  const checks: Array<CheckRecord> = []
  // Filled once the port is known.
  let url = ""
  let config: DemoConfig | undefined
  let proofs: ReturnType<typeof makeProofService> | undefined

  const send = (res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...extra })
    res.end(body)
  }
  const json = (res: ServerResponse, value: unknown, status = 200, extra: Record<string, string> = {}) =>
    send(res, status, TYPES[".json"]!, JSON.stringify(value), extra)

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://demo.invalid").pathname
    const method = req.method ?? "GET"
    if (method === "GET" && path === DEMO_PATHS.config) return json(res, config)
    // The wallet (another origin) fetches the manifest and the icon.
    if (method === "GET" && path === DEMO_PATHS.manifest)
      return json(res, { url, name: "Demo dApp", iconUrl: `${url}${DEMO_PATHS.icon}` }, 200, { "access-control-allow-origin": "*" })
    if (method === "GET" && path === DEMO_PATHS.wallets) return json(res, [])
    if (method === "GET" && (path === DEMO_PATHS.icon || path.startsWith("/tc-assets/")))
      return send(res, 200, TYPES[".png"]!, icon, { "access-control-allow-origin": "*" })
    if (method === "POST" && path === DEMO_PATHS.proofPayload) return json(res, { payload: proofs!.payload() })
    if (method === "POST" && path === DEMO_PATHS.proofCheck) {
      let result: CheckResult
      try {
        result = proofs!.checkProof(JSON.parse(await readBody(req)) as ProofCheckRequest)
      } catch (error) {
        result = { valid: false, reason: error instanceof Error ? error.message : "bad request" }
      }
      checks.push({ kind: "ton_proof", result })
      return json(res, result)
    }
    if (method === "POST" && path === DEMO_PATHS.signDataCheck) {
      let result: CheckResult
      try {
        result = checkSignData(JSON.parse(await readBody(req)) as SignDataCheckRequest, new URL(url).host)
      } catch (error) {
        result = { valid: false, reason: error instanceof Error ? error.message : "bad request" }
      }
      checks.push({ kind: "sign_data", result })
      return json(res, result)
    }
    if (method !== "GET") return send(res, 405, "text/plain", "method not allowed")
    // Static files of the build; anything else is the page.
    const file = normalize(join(distDir, path === "/" ? "index.html" : path))
    if (file.startsWith(distDir) && existsSync(file) && statSync(file).isFile())
      return send(res, 200, TYPES[extname(file)] ?? "application/octet-stream", readFileSync(file))
    return send(res, 200, TYPES[".html"]!, readFileSync(join(distDir, "index.html")))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain", error instanceof Error ? error.message : "error")
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, "127.0.0.1", resolve)
  })
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const domain = new URL(url).host
  proofs = makeProofService({ domain })
  const wallet: DemoWallet = {
    appName: "telegram-wallet-dev",
    name: "Wallet (dev)",
    imageUrl: `${url}${DEMO_PATHS.icon}`,
    aboutUrl: url,
    universalLink: options.universalLink ?? "https://t.me/wallet_dev_bot/start",
    bridgeUrl: options.bridgeUrl,
    platforms: ["ios", "android", "macos", "windows", "linux"],
  }
  config = {
    manifestUrl: `${url}${DEMO_PATHS.manifest}`,
    walletsListUrl: `${url}${DEMO_PATHS.wallets}`,
    wallet,
    receiver: receiver.friendly,
    amount: String(options.amountNano ?? 100_000_000n),
    signText: options.signText ?? "Hello from the demo dApp",
  }
  const sockets = new Set<import("node:net").Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.once("close", () => sockets.delete(socket))
  })
  return {
    url,
    domain,
    config,
    receiverRaw: receiver.raw,
    checks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

/**
 * The `startapp` value of a link the dApp opened (`https://t.me/<bot>/<app>?startapp=tonconnect-…`
 * or the `tg://resolve?…&startapp=…` deep link), or undefined.
 */
export const startParamOf = (link: string): string | undefined => {
  try {
    const value = new URL(link).searchParams.get("startapp")
    return value !== null && value.startsWith("tonconnect-") ? value : undefined
  } catch {
    return undefined
  }
}
