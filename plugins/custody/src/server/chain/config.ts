/**
 * Settings of custody on chain: where they come from (the region's `custody.chain` plugin config,
 * then environment variables), fees and limits per currency and network, and the dev defaults.
 *
 * | setting | config key | env | default |
 * |---|---|---|---|
 * | master seed (derives every deposit and hot wallet) | `masterSeed` | `CUSTODY_CHAIN_MASTER_SEED` | dev: a fixed dev seed; else chain features are off |
 * | poll interval of the watcher and processor (ms) | `pollMs` | `CUSTODY_CHAIN_POLL_MS` | 2000 |
 * | TON global id (-239 mainnet, -3 testnet) | `globalId` | `CUSTODY_CHAIN_GLOBAL_ID` | -239 |
 * | the devnet (simulated networks and the faucet) | `devnetUrl` | `ServerConfig.chainApiUrl` when the server was given one, else `CHAIN_API_URL` | http://127.0.0.1:8091 |
 * | networks whose withdrawals answer an alerting banner | `withdrawalsSuspended` | `CUSTODY_WITHDRAWALS_SUSPENDED` (comma list) | none |
 * | TON jetton masters by currency | `tonJettons` | - | dev: USDT = the devnet's `usdt.ton`; else mainnet USD₮ |
 */
import { Config, Context, Effect, Option, Redacted } from "effect"
import { ServerConfig } from "@wallet/kernel-server"
import { NETWORK_CODES } from "../../api.ts"
import type { NetworkCode } from "../../currencies.ts"

export interface FeeRule {
  readonly fee: bigint
  readonly min: bigint
  readonly max: bigint
}

const unit = (decimals: number) => 10n ** BigInt(decimals)

/** Fee (charged on top, to the platform's fee account), smallest and largest amount, in minor units. */
export const DEFAULT_FEES: Readonly<Partial<Record<NetworkCode, Readonly<Record<string, FeeRule>>>>> = {
  ton: {
    TON: { fee: unit(9) / 100n, min: unit(9) / 100n, max: 100_000n * unit(9) },
    USDT: { fee: unit(6) / 5n, min: unit(6), max: 100_000n * unit(6) },
  },
  tron: { USDT: { fee: unit(6), min: 5n * unit(6), max: 100_000n * unit(6) } },
  ethereum: {
    USDT: { fee: 3n * unit(6), min: 10n * unit(6), max: 100_000n * unit(6) },
    ETH: { fee: unit(18) / 2000n, min: unit(18) / 500n, max: 100n * unit(18) },
    XAUT: { fee: unit(6) / 1000n, min: unit(6) / 100n, max: 1000n * unit(6) },
  },
  solana: {
    USDT: { fee: unit(6) / 2n, min: unit(6), max: 100_000n * unit(6) },
    SOL: { fee: unit(9) / 1000n, min: unit(9) / 100n, max: 10_000n * unit(9) },
  },
  bitcoin: { BTC: { fee: 5_000n, min: 10_000n, max: 10n * unit(8) } },
}

/** Mainnet USD₮ on TON. */
export const MAINNET_USDT_MASTER = "0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe"

/** A fixed seed for dev servers only (deposit addresses stay the same across restarts). Not a secret. */
export const DEV_MASTER_SEED = "wallet-dev-custody-master-seed-not-a-secret"

export interface ChainSettingsShape {
  /** False outside dev without a master seed: chain endpoints answer chain_unavailable, no fibers run. */
  readonly enabled: boolean
  readonly masterSeed: Redacted.Redacted<Uint8Array>
  readonly pollMs: number
  readonly globalId: -239 | -3
  readonly devnetUrl: string
  /** Fund hot wallets from the devnet faucet when they run low. */
  readonly devFaucet: boolean
  readonly fees: Readonly<Partial<Record<NetworkCode, Readonly<Record<string, FeeRule>>>>>
  readonly withdrawalsSuspended: ReadonlyArray<NetworkCode>
  /** Jetton master per currency ("USDT" -> raw address or a .ton name resolved at start). */
  readonly tonJettons: Readonly<Record<string, string>>
  /** A sent TON batch not seen on chain this long after its expiry is failed (seconds). */
  readonly expiryGraceSeconds: number
}

export class ChainSettings extends Context.Service<ChainSettings, ChainSettingsShape>()("wallet/custody/ChainSettings") {}

interface PluginChainConfig {
  readonly masterSeed?: string
  readonly pollMs?: number
  readonly globalId?: number
  readonly devnetUrl?: string
  readonly withdrawalsSuspended?: ReadonlyArray<string>
  readonly tonJettons?: Readonly<Record<string, string>>
}

const env = Config.all({
  masterSeed: Config.option(Config.Redacted("CUSTODY_CHAIN_MASTER_SEED")),
  pollMs: Config.option(Config.Int("CUSTODY_CHAIN_POLL_MS")),
  globalId: Config.option(Config.Int("CUSTODY_CHAIN_GLOBAL_ID")),
  devnetUrl: Config.option(Config.String("CHAIN_API_URL")),
  suspended: Config.option(Config.String("CUSTODY_WITHDRAWALS_SUSPENDED")),
})

const isNetwork = (s: string): s is NetworkCode => (NETWORK_CODES as ReadonlyArray<string>).includes(s)

/** Reads the settings from the region's plugin config and the environment. */
export const readChainSettings = Effect.gen(function* () {
  const server = yield* ServerConfig
  const plugin = ((server.pluginConfig.custody as { chain?: PluginChainConfig } | undefined)?.chain ?? {}) as PluginChainConfig
  const fromEnv = yield* Effect.orElseSucceed(env, () => ({
    masterSeed: Option.none<Redacted.Redacted<string>>(),
    pollMs: Option.none<number>(),
    globalId: Option.none<number>(),
    devnetUrl: Option.none<string>(),
    suspended: Option.none<string>(),
  }))
  const seedText = plugin.masterSeed ?? Option.getOrUndefined(Option.map(fromEnv.masterSeed, Redacted.value)) ?? (server.dev ? DEV_MASTER_SEED : undefined)
  const globalId = plugin.globalId ?? Option.getOrUndefined(fromEnv.globalId) ?? -239
  const suspended =
    plugin.withdrawalsSuspended ??
    Option.getOrElse(
      Option.map(fromEnv.suspended, (s) => s.split(",")),
      () => [] as ReadonlyArray<string>,
    )
  return ChainSettings.of({
    enabled: seedText !== undefined,
    masterSeed: Redacted.make(new TextEncoder().encode(seedText ?? "")),
    pollMs: Math.max(10, plugin.pollMs ?? Option.getOrUndefined(fromEnv.pollMs) ?? 2000),
    globalId: globalId === -3 ? -3 : -239,
    devnetUrl: (plugin.devnetUrl ?? server.chainApiUrl ?? Option.getOrUndefined(fromEnv.devnetUrl) ?? "http://127.0.0.1:8091").replace(/\/+$/, ""),
    devFaucet: server.dev,
    fees: DEFAULT_FEES,
    withdrawalsSuspended: suspended.map((s) => s.trim()).filter(isNetwork),
    tonJettons: plugin.tonJettons ?? (server.dev ? { USDT: "usdt.ton" } : { USDT: MAINNET_USDT_MASTER }),
    expiryGraceSeconds: 30,
  })
})

export const feeRule = (settings: ChainSettingsShape, network: NetworkCode, currency: string): FeeRule | undefined => settings.fees[network]?.[currency]
