/**
 * A dApp for tests: the real `@tonconnect/sdk` in Node (no outside hosts: local storage, analytics
 * off, a local wallets list) and a tiny site serving its manifest and icon with CORS, so the
 * mini-app in a browser can fetch them. Used by the wallet browser test (tooling/e2e).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { TonConnect, type Wallet } from "@tonconnect/sdk"

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#6c5ce7"/><path d="M18 20h28L32 46z" fill="#fff"/></svg>`

export interface SdkDapp {
  readonly url: string
  readonly name: string
  readonly connector: TonConnect
  /** Resolves with the first status (connected wallet or null) that passes `until`. */
  readonly status: (until: (wallet: Wallet | null) => boolean) => Promise<Wallet | null>
  /** Resolves with the next connection error (e.g. UserRejectsError when the user declines). */
  readonly nextError: () => Promise<Error>
  readonly close: () => Promise<void>
}

export const startSdkDapp = async (options: { readonly bridgeUrl: string; readonly name?: string }): Promise<SdkDapp> => {
  const name = options.name ?? "Demo dApp"
  let url = ""
  const site: Server = createServer((req, res) => {
    const cors = { "access-control-allow-origin": "*" }
    if (req.url === "/wallets.json") {
      res.writeHead(200, { "content-type": "application/json", ...cors })
      res.end("[]")
    } else if (req.url === "/tonconnect-manifest.json") {
      res.writeHead(200, { "content-type": "application/json", ...cors })
      res.end(JSON.stringify({ url, name, iconUrl: `${url}/icon.svg` }))
    } else if (req.url === "/icon.svg") {
      res.writeHead(200, { "content-type": "image/svg+xml", ...cors })
      res.end(ICON)
    } else {
      res.writeHead(404, cors)
      res.end()
    }
  })
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  const store = new Map<string, string>()
  const connector = new TonConnect({
    manifestUrl: `${url}/tonconnect-manifest.json`,
    storage: {
      setItem: async (key: string, value: string) => void store.set(key, value),
      getItem: async (key: string) => store.get(key) ?? null,
      removeItem: async (key: string) => void store.delete(key),
    },
    analytics: { mode: "off" },
    walletsListSource: `${url}/wallets.json`,
  } as ConstructorParameters<typeof TonConnect>[0])
  const waiters: Array<{ until: (w: Wallet | null) => boolean; resolve: (w: Wallet | null) => void }> = []
  const errorWaiters: Array<(e: Error) => void> = []
  connector.onStatusChange(
    (wallet) => {
      for (const waiter of waiters.splice(0)) {
        if (waiter.until(wallet)) waiter.resolve(wallet)
        else waiters.push(waiter)
      }
    },
    (error) => {
      for (const waiter of errorWaiters.splice(0)) waiter(error)
    },
  )
  return {
    url,
    name,
    connector,
    status: (until) => new Promise((resolve) => waiters.push({ until, resolve })),
    nextError: () => new Promise((resolve) => errorWaiters.push(resolve)),
    close: async () => {
      connector.pauseConnection()
      await new Promise<void>((resolve) => site.close(() => resolve()))
    },
  }
}

/** The Telegram start param (`tonconnect-…`) of a connect link the SDK made for a t.me wallet. */
export const startParamOfLink = (link: string): string => {
  const startapp = new URL(link).searchParams.get("startapp")
  if (!startapp?.startsWith("tonconnect-")) throw new Error(`not a startapp connect link: ${link.slice(0, 80)}`)
  return startapp
}
