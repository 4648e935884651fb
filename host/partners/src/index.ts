/**
 * `@wallet/partners`: local sandboxes of the wallet's partners. The first is Sumsub (KYC): its
 * signed server API, the WebSDK frame that `@sumsub/websdk-react` embeds, and signed webhooks with
 * Sumsub's retry schedule and optional chaos (duplicates, out-of-order delivery). State lives in
 * PGlite. The wallet's Sumsub adapter talks to it exactly as to the real service.
 */
import type { AddressInfo } from "node:net"
import {
  DEFAULT_DATA_DIR,
  DEFAULT_FRAME_ANCESTORS,
  DEFAULT_SUMSUB_PORT,
  DEV_SUMSUB,
  probability,
  SUMSUB_RETRY_DELAYS_MS,
  type Chaos,
  type DigestAlg,
  type SandboxConfig,
} from "./config.ts"
import type { SandboxContext } from "./context.ts"
import { openStorage } from "./db.ts"
import { startDeliveryLoop, sumsubChannel } from "./delivery.ts"
import { createSandboxServer } from "./http/server.ts"

export { DEFAULT_SUMSUB_PORT, DEV_SUMSUB, LEVELS, SUMSUB_RETRY_DELAYS_MS, type Chaos, type DigestAlg } from "./config.ts"
export { sumsubSignature } from "./http/signature.ts"
export { payloadDigest } from "./webhooks.ts"
export {
  DEFAULT_RAMP_PORT,
  DEV_RAMP,
  mercuryoCallbackSignature,
  mercuryoWidgetSignature,
  moonpayUrlSignature,
  moonpayWebhookSignature,
  RAMP_RETRY_DELAYS_MS,
  rampProvidersConfig,
  startRampSandbox,
  TEST_CARDS,
  type RampProvider,
  type RampSandboxOptions,
  type RampWebhookUrls,
  type RunningRampSandbox,
} from "./ramp/index.ts"

export interface SumsubSandboxOptions {
  /** default 8092; 0 = a free port */
  port?: number
  /** default 127.0.0.1 */
  host?: string
  /** PGlite directory; default <repo>/.data/partners/sumsub; "memory" keeps everything in memory */
  dataDir?: string
  appToken?: string
  secretKey?: string
  webhookSecret?: string
  /** where webhooks go; until one is set they wait */
  webhookUrl?: string
  /** default HMAC_SHA256_HEX */
  digestAlg?: DigestAlg
  /** delays before the 2nd, 3rd… delivery attempt; default Sumsub's 5 min, 1 h, 5 h, 18 h */
  retryDelaysMs?: ReadonlyArray<number>
  /** probabilities 0..1; default none */
  chaos?: Chaos
  /** origins allowed to frame websdk.html; default loopback and Telegram's web clients */
  frameAncestors?: ReadonlyArray<string>
  now?: () => number
  /** where delivery failures and internal errors are reported; default silent */
  log?: (line: string) => void
}

export interface RunningSumsubSandbox {
  /** the origin, e.g. http://127.0.0.1:8092 (no trailing slash: the SDK compares it with event.origin) */
  readonly url: string
  setWebhookUrl(url: string): void
  setChaos(chaos: Chaos): void
  /** Resolves when no webhook delivery is due or in flight (tests). */
  idle(): Promise<void>
  close(): Promise<void>
}

const originHost = (host: string, address: AddressInfo): string => {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1"
  if (host === "::") return "[::1]"
  return address.family === "IPv6" && host.includes(":") ? `[${host}]` : host
}

const resolveChaos = (chaos: Chaos | undefined): Required<Chaos> => ({ duplicate: probability(chaos?.duplicate), reorder: probability(chaos?.reorder) })

export const startSumsubSandbox = async (options: SumsubSandboxOptions = {}): Promise<RunningSumsubSandbox> => {
  const log = options.log ?? (() => {})
  const config: SandboxConfig = {
    appToken: options.appToken ?? DEV_SUMSUB.appToken,
    secretKey: options.secretKey ?? DEV_SUMSUB.secretKey,
    webhookSecret: options.webhookSecret ?? DEV_SUMSUB.webhookSecret,
    digestAlg: options.digestAlg ?? "HMAC_SHA256_HEX",
    retryDelaysMs: [...(options.retryDelaysMs ?? SUMSUB_RETRY_DELAYS_MS)],
    frameAncestors: [...(options.frameAncestors ?? DEFAULT_FRAME_ANCESTORS)],
    now: options.now ?? Date.now,
  }
  let chaos = resolveChaos(options.chaos)
  const storage = await openStorage(options.dataDir ?? DEFAULT_DATA_DIR)
  const ctx: SandboxContext = { db: storage.db, config, chaos: () => chaos }
  const deliveries = startDeliveryLoop(sumsubChannel(ctx), options.webhookUrl, log)
  const server = createSandboxServer(ctx, log)
  const host = options.host ?? "127.0.0.1"
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject)
      server.listen(options.port ?? DEFAULT_SUMSUB_PORT, host, () => {
        server.off("error", reject)
        resolve()
      })
    })
  } catch (error) {
    await deliveries.close()
    await storage.close()
    throw error
  }
  const address = server.address() as AddressInfo
  let closing: Promise<void> | undefined
  return {
    url: `http://${originHost(host, address)}:${address.port}`,
    setWebhookUrl: (url) => deliveries.setWebhookUrl(url),
    setChaos: (next) => {
      chaos = resolveChaos(next)
    },
    idle: () => deliveries.idle(),
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        await deliveries.close()
        await storage.close()
      })()),
  }
}
