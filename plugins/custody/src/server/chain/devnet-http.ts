/** JSON over HTTP to the devnet's own paths (simulated networks, faucet): outside the tonapi subset the Chain service covers. */
import { Effect, Schema } from "effect"
import { ChainUnavailable } from "./adapter.ts"
import type { ChainSettingsShape } from "./config.ts"

/** The devnet answered 4xx: `status` and its `error` text. */
export class DevnetStatus extends Schema.TaggedError<DevnetStatus>()("DevnetStatus", {
  status: Schema.Number,
  message: Schema.String,
}) {}

const call = (settings: ChainSettingsShape, method: "GET" | "POST", path: string, body: unknown, network: string) =>
  Effect.tryPromise({
    try: async (signal) => {
      const response = await fetch(`${settings.devnetUrl}${path}`, {
        method,
        signal: AbortSignal.any([signal, AbortSignal.timeout(15_000)]),
        headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      const text = await response.text()
      const json = text ? (JSON.parse(text) as unknown) : undefined
      if (!response.ok)
        throw new DevnetStatus({ status: response.status, message: (json as { error?: string } | undefined)?.error ?? `HTTP ${response.status}` })
      return json
    },
    catch: (error) =>
      error instanceof DevnetStatus ? error : new ChainUnavailable({ network, message: error instanceof Error ? error.message : "network error" }),
  })

/** GET; a 4xx answer fails with `DevnetStatus`, anything else unexpected with `ChainUnavailable`. */
export const devnetGet = <A>(settings: ChainSettingsShape, path: string, network: string) =>
  call(settings, "GET", path, undefined, network) as Effect.Effect<A, ChainUnavailable | DevnetStatus>

export const devnetPostRaw = <A>(settings: ChainSettingsShape, path: string, body: unknown, network: string) =>
  call(settings, "POST", path, body, network) as Effect.Effect<A, ChainUnavailable | DevnetStatus>

/** POST where any failure means "not now". */
export const devnetPost = (settings: ChainSettingsShape, path: string, body: unknown, network: string) =>
  devnetPostRaw(settings, path, body, network).pipe(
    Effect.mapError((error) => (error instanceof DevnetStatus ? new ChainUnavailable({ network, message: `${path}: ${error.message}` }) : error)),
    Effect.asVoid,
  )
