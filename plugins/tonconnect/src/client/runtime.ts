/**
 * TonConnect in the running mini-app: one engine for the current self-custody wallet and network,
 * its bridge listener, and the requests waiting for the user. Loaded lazily (it pulls the engine,
 * @tonconnect/protocol, @ton/ton and @ton/core); never part of the first screen.
 */
// The engine's entry first: it installs the Buffer global before @ton/core loads.
import {
  keyValueStoreFrom,
  SEND_TRANSACTION_ERROR_CODES,
  makeEngine,
  SignerError,
  tonConnectPlatform,
  type PendingRequest,
  type RefusedRequest,
  type SessionInfo,
  type TonConnectEngine,
  type WalletSigner,
} from "../engine/index.ts"
import { sealedStore } from "../engine/sealed-store.ts"
import { Address } from "@ton/core"
import { Effect } from "effect"
import { Passcode } from "@wallet/kernel"
import type { Go, Kernel } from "@wallet/kernel-react"
import type { CurrentWallet } from "@wallet/plugin-ton-space/wallet-access"
import { engineVersionOf } from "./logic.ts"
import { requestRoute } from "../routes.ts"
import { indexedDbKeys, sealingKeys, secureStorageKeys } from "./seal-keys.ts"

/** A request shown on /scw/tc/request?id=<key>: waiting for the user, or refused before (shown why). */
export type RequestEntry =
  | { readonly kind: "pending"; readonly key: string; readonly pending: PendingRequest }
  | { readonly kind: "refused"; readonly key: string; readonly refused: RefusedRequest }

export interface TonConnectRuntime {
  readonly engine: TonConnectEngine
  readonly wallet: CurrentWallet
}

type Access = typeof import("@wallet/plugin-ton-space/wallet-access")

let access: Promise<Access> | undefined
const loadAccess = () => (access ??= import("@wallet/plugin-ton-space/wallet-access"))

let current: { readonly key: string; readonly runtime: TonConnectRuntime } | undefined
let building: Promise<TonConnectRuntime | null> | undefined
let go: Go | undefined
let unsubscribeWallet: (() => void) | undefined

const entries = new Map<string, RequestEntry>()
const listeners = new Set<() => void>()
let sessionsSnapshot: ReadonlyArray<SessionInfo> | undefined
const notify = () => listeners.forEach((l) => l())

/** Changes of the connected apps and of the waiting requests. */
export const subscribe = (listener: () => void): (() => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export const requestEntry = (key: string): RequestEntry | undefined => entries.get(key)
export const forgetEntry = (key: string) => {
  entries.delete(key)
  notify()
}

/** The friendly form of a raw address on the wallet's network (bounceable unless it is the user's own kind). */
export const friendlyAddress = (raw: string, network: "-239" | "-3", bounceable = true): string => {
  try {
    return Address.parse(raw).toString({ urlSafe: true, bounceable, testOnly: network === "-3" })
  } catch {
    return raw
  }
}

const show = (entry: RequestEntry) => {
  entries.set(entry.key, entry)
  notify()
  void go?.(requestRoute, { search: { id: entry.key } })
}

const signerFor = (kernel: Kernel, wallet: CurrentWallet, version: "v5r1" | "v4r2"): WalletSigner => ({
  address: wallet.address,
  publicKey: wallet.publicKey,
  stateInit: wallet.walletStateInit,
  network: wallet.network,
  version,
  signRaw: (bytes) =>
    Effect.tryPromise({
      try: async () =>
        (await loadAccess()).signBytes(kernel, kernel.passcode ?? Passcode.unavailable, bytes, {
          operation: "tonconnect_sign",
          expectedPublicKey: wallet.publicKey,
        }),
      catch: () => new SignerError({ cancelled: false, message: "signing failed" }),
    }).pipe(
      Effect.flatMap((outcome) =>
        outcome.ok
          ? Effect.succeed(outcome.signature)
          : Effect.fail(
              new SignerError({
                cancelled: outcome.reason === "cancelled",
                message: outcome.reason === "cancelled" ? "the user cancelled" : `the wallet's key is ${outcome.reason}`,
              }),
            ),
      ),
    ),
})

let seq = 0

/**
 * Device storage for the engine: records in localStorage, sealed with a device key kept elsewhere
 * (SecureStorage or IndexedDB, decision 0750). One per page, so the key is looked up once.
 */
let sessionStore: ReturnType<typeof sealedStore> | undefined
const storeFor = (kernel: Kernel) => {
  const onProblem = (message: string) => console.warn(`[tonconnect] ${message}`)
  sessionStore ??= sealedStore(
    keyValueStoreFrom(window.localStorage, onProblem),
    sealingKeys({ secure: secureStorageKeys(kernel.telegram), idb: indexedDbKeys() }),
    { onProblem },
  )
  return sessionStore
}

/** Which engine a wallet needs: network, address and signing version; undefined when none can sign. */
const keyOf = (wallet: CurrentWallet | null | undefined): string | undefined => {
  const version = wallet ? engineVersionOf(wallet.version) : null
  return wallet && version ? `${wallet.network}:${wallet.address}:${version}` : undefined
}

/**
 * The engine of the wallet on this device (built on first use, rebuilt when the wallet or its
 * network changes) with its bridge listener started; null without a self-custody wallet or for a
 * wallet version the engine cannot sign for.
 */
export const tonConnect = (kernel: Kernel, navigateTo?: Go): Promise<TonConnectRuntime | null> => {
  if (navigateTo) go = navigateTo
  const run = async (): Promise<TonConnectRuntime | null> => {
    const walletAccess = await loadAccess()
    // The wallet state changes for many reasons (pending transactions, backup flags); only another
    // wallet, version or network replaces the engine, and the new one listens at once.
    unsubscribeWallet ??= walletAccess.onWalletChange(kernel, () => {
      void walletAccess.currentWallet(kernel).then((next) => {
        if (!current || current.key === keyOf(next)) return
        current.runtime.engine.stop()
        current = undefined
        sessionsSnapshot = undefined
        notify()
        if (keyOf(next) !== undefined) void tonConnect(kernel)
      })
    })
    const wallet = await walletAccess.currentWallet(kernel)
    const key = keyOf(wallet)
    const version = wallet ? engineVersionOf(wallet.version) : null
    if (!wallet || !version || key === undefined) return null
    if (current?.key === key) return current.runtime
    current?.runtime.engine.stop()
    const launch = kernel.telegram.launchParams
    const engine = makeEngine({
      signer: signerFor(kernel, wallet, version),
      storage: storeFor(kernel),
      bridgeUrl: `${window.location.origin}/bridge`,
      chain: wallet.chain,
      device: { platform: tonConnectPlatform(launch.platform), appName: "wallet", appVersion: launch.version },
      onRequest: (pending) => show({ kind: "pending", key: `r${++seq}`, pending }),
      onRefused: (refused) => show({ kind: "refused", key: `r${++seq}`, refused }),
      onSessionsChanged: (sessions) => {
        sessionsSnapshot = sessions
        notify()
      },
      onProblem: (message) => console.warn(`[tonconnect] ${message}`),
    })
    const runtime = { engine, wallet }
    current = { key, runtime }
    sessionsSnapshot = await Effect.runPromise(engine.sessions())
    await Effect.runPromise(engine.start())
    notify()
    return runtime
  }
  building ??= run().finally(() => {
    building = undefined
  })
  return building
}

/** The connected apps of the current wallet, as last known (undefined before the engine loaded). */
export const knownSessions = (): ReadonlyArray<SessionInfo> | undefined => sessionsSnapshot

/** Answers every waiting request of a session that went away (the dApp or the user disconnected). */
export const dropEntriesOf = (sessionId: string) => {
  for (const [key, entry] of entries) if (entry.kind === "pending" && entry.pending.session.id === sessionId) entries.delete(key)
  notify()
}

export { SEND_TRANSACTION_ERROR_CODES }
