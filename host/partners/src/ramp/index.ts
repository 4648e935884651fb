/**
 * The ramp sandbox: one server for a MoonPay-like (buy and sell) and a Mercuryo-like (buy) provider,
 * with the providers' signed widget URLs, checkout pages and test cards, status APIs, and signed
 * webhooks (retries, and with chaos duplicates and reordering) through the shared delivery loop.
 * State lives in PGlite (`<dataDir>` or in memory).
 */
import type { AddressInfo } from "node:net"
import { probability, type Chaos } from "../config.ts"
import { openStorage } from "../db.ts"
import { startDeliveryLoop, type DeliveryChannel, type DeliveryLoop } from "../delivery.ts"
import { DEFAULT_RAMP_DATA_DIR, DEFAULT_RAMP_PORT, DEFAULT_THREE_DS_DELAY_MS, DEV_RAMP, RAMP_RETRY_DELAYS_MS, type Provider } from "./config.ts"
import { RAMP_MIGRATIONS } from "./schema.ts"
import { createRampServer, type RampContext, type RampCredentials } from "./server.ts"
import { mercuryoCallbackSignature, moonpayWebhookSignature } from "./signatures.ts"
import { completeDue } from "./transactions.ts"

export { DEFAULT_RAMP_PORT, DEV_RAMP, RAMP_RETRY_DELAYS_MS, TEST_CARDS, rampProvidersConfig, type Provider as RampProvider } from "./config.ts"
export { mercuryoCallbackSignature, mercuryoWidgetSignature, moonpayUrlSignature, moonpayWebhookSignature } from "./signatures.ts"

export interface RampWebhookUrls {
  readonly moonpay?: string | undefined
  readonly mercuryo?: string | undefined
}

export interface RampSandboxOptions {
  /** default 8093; 0 = a free port */
  port?: number
  /** default 127.0.0.1 */
  host?: string
  /** PGlite directory; default <repo>/.data/partners/ramp; "memory" keeps everything in memory */
  dataDir?: string
  /** where each provider's webhooks go; until one is set they wait */
  webhookUrls?: RampWebhookUrls
  /** delays before the 2nd, 3rd… delivery attempt; default 2 s, 10 s, 1 min, 5 min */
  retryDelaysMs?: ReadonlyArray<number>
  /** probabilities 0..1; default none */
  chaos?: Chaos
  /** after a passed 3-D Secure challenge, the buy completes this much later; default 3000 */
  threeDsDelayMs?: number
  /** after a sell's deposit, the payout completes this much later; default 1000 */
  settleDelayMs?: number
  credentials?: RampCredentials
  now?: () => number
  /** where delivery failures and internal errors are reported; default silent */
  log?: (line: string) => void
}

export interface RunningRampSandbox {
  /** the origin, e.g. http://127.0.0.1:8093 */
  readonly url: string
  /** replaces the URLs of the providers named (undefined: that provider's webhooks wait) */
  setWebhookUrls(urls: RampWebhookUrls): void
  setChaos(chaos: Chaos): void
  /** Resolves when no webhook delivery is due or in flight (tests). */
  idle(): Promise<void>
  /** Completes every pending 3-D Secure buy and deposited sell now (instead of after the delay); how many. */
  completePending3ds(): Promise<number>
  close(): Promise<void>
}

const TICK_MS = 200

const originHost = (host: string, address: AddressInfo): string => {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1"
  if (host === "::") return "[::1]"
  return address.family === "IPv6" && host.includes(":") ? `[${host}]` : host
}

const resolveChaos = (chaos: Chaos | undefined): Required<Chaos> => ({ duplicate: probability(chaos?.duplicate), reorder: probability(chaos?.reorder) })

export const startRampSandbox = async (options: RampSandboxOptions = {}): Promise<RunningRampSandbox> => {
  const log = options.log ?? (() => {})
  const now = options.now ?? Date.now
  const credentials = options.credentials ?? DEV_RAMP
  const retryDelaysMs = [...(options.retryDelaysMs ?? RAMP_RETRY_DELAYS_MS)]
  let chaos = resolveChaos(options.chaos)
  const storage = await openStorage(options.dataDir ?? DEFAULT_RAMP_DATA_DIR, RAMP_MIGRATIONS)
  const db = storage.db

  const channel = (provider: Provider): DeliveryChannel => ({
    db,
    table: `${provider}_deliveries`,
    name: provider,
    headers:
      provider === "moonpay"
        ? (body) => ({ "moonpay-signature-v2": moonpayWebhookSignature(Math.floor(now() / 1000), body, credentials.moonpay.webhookKey) })
        : (body) => ({ "x-signature": mercuryoCallbackSignature(body, credentials.mercuryo.signKey) }),
    retryDelaysMs,
    chaos: () => chaos,
    now,
  })
  const loops: Record<Provider, DeliveryLoop> = {
    moonpay: startDeliveryLoop(channel("moonpay"), options.webhookUrls?.moonpay, log),
    mercuryo: startDeliveryLoop(channel("mercuryo"), options.webhookUrls?.mercuryo, log),
  }

  // timed completions: 3-D Secure buys and deposited sells
  let completing: Promise<number> | undefined
  let closed = false
  const complete = (all: boolean): Promise<number> => {
    const run = (completing ?? Promise.resolve(0)).catch(() => 0).then(() => (closed ? 0 : completeDue(db, now(), all, chaos.reorder)))
    completing = run
    return run.finally(() => {
      if (completing === run) completing = undefined
    })
  }
  const timer = setInterval(() => {
    if (completing || closed) return
    complete(false).catch((error: unknown) => {
      if (!closed) log(`ramp completions: ${error instanceof Error ? error.message : String(error)}`)
    })
  }, TICK_MS)
  timer.unref()

  const ctx: RampContext = {
    db,
    credentials,
    now,
    threeDsDelayMs: Math.max(0, options.threeDsDelayMs ?? DEFAULT_THREE_DS_DELAY_MS),
    settleDelayMs: Math.max(0, options.settleDelayMs ?? 1000),
    reorder: () => chaos.reorder,
  }
  const server = createRampServer(ctx, log)
  const host = options.host ?? "127.0.0.1"
  const stop = async (): Promise<void> => {
    closed = true
    clearInterval(timer)
    await completing?.catch(() => undefined)
    await loops.moonpay.close()
    await loops.mercuryo.close()
    await storage.close()
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(options.port ?? DEFAULT_RAMP_PORT, host, () => {
        server.off("error", reject)
        resolve()
      })
    })
  } catch (error) {
    await stop()
    throw error
  }
  const address = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://${originHost(host, address)}:${address.port}`,
    setWebhookUrls: (urls) => {
      if ("moonpay" in urls) loops.moonpay.setWebhookUrl(urls.moonpay)
      if ("mercuryo" in urls) loops.mercuryo.setWebhookUrl(urls.mercuryo)
    },
    setChaos: (next) => {
      chaos = resolveChaos(next)
    },
    idle: async () => {
      await completing?.catch(() => undefined)
      await Promise.all([loops.moonpay.idle(), loops.mercuryo.idle()])
    },
    completePending3ds: () => complete(true),
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        await stop()
      })()),
  }
}
