/**
 * The wallet's side of the server's address list (spec 2 §7 "Wallet addresses and backup",
 * decision 0620): register the address after create and import, report the manual backup after the
 * word test and refresh the list, sync the server's backup flags into the wallet state. Calls go
 * through the kernel's Http (bearer token, retries); none carries a secret, only addresses.
 * Failures never block a screen: each call answers an outcome instead of throwing.
 */
import { Duration, Effect } from "effect"
import { Http, HttpError, type HttpShape } from "@wallet/kernel"
import type { Kernel } from "@wallet/kernel-react"
import { ActiveAddress, AddressesResponse, type AddressesResponse as AddressesResponseType } from "../api.ts"
import { walletStore } from "./hooks.ts"
import type { WalletStateStore } from "./store.ts"

/** Spec 2 §7: the addresses list times out after 20 s (retries included). */
export const ADDRESSES_TIMEOUT_MS = 20_000

export interface SyncDeps {
  readonly http: HttpShape
  /** The API origin (the page's in the mini-app). */
  readonly origin: string
  readonly store: WalletStateStore
}

const timedOut = () => new HttpError({ code: "ECONNABORTED", message: `Request timed out after ${ADDRESSES_TIMEOUT_MS} ms`, timedOut: true })

/** GET the list; never stale: no cache, a fresh request each time, 20 s at most. */
export const fetchAddresses = (deps: Pick<SyncDeps, "http" | "origin">): Effect.Effect<AddressesResponseType, HttpError> =>
  deps.http
    .json(AddressesResponse, `${deps.origin}/api/ton-space/addresses`, { headers: { "cache-control": "no-cache" } })
    .pipe(Effect.timeoutOrElse({ duration: Duration.millis(ADDRESSES_TIMEOUT_MS), orElse: () => Effect.fail(timedOut()) }))

/** The server's manual backup flags into the wallet state. */
export const applyAddresses = (store: WalletStateStore, response: AddressesResponseType) =>
  store.update((state) => ({ ...state, serverBackups: response.actives.filter((a) => a.manualBackupComplete).map((a) => a.address) }))

/** Fetches the list and syncs the flags; the list, or undefined when the call failed. */
export const refreshAddresses = (deps: SyncDeps) =>
  fetchAddresses(deps).pipe(
    Effect.tap((response) => Effect.sync(() => applyAddresses(deps.store, response))),
    Effect.map((response): AddressesResponseType | undefined => response),
    Effect.catch(() => Effect.succeed(undefined)),
  )

export type RegisterOutcome = "registered" | "taken" | "failed" | "no-wallet"

/** Tracks the wallet's current address for the user (after create or import). "taken": another user tracks it. */
export const registerCurrent = (deps: SyncDeps, source: "create" | "import"): Effect.Effect<RegisterOutcome> =>
  Effect.suspend(() => {
    const state = deps.store.get()
    if (state.address === undefined) return Effect.succeed("no-wallet" as const)
    return deps.http
      .json(ActiveAddress, `${deps.origin}/api/ton-space/addresses`, {
        method: "POST",
        body: { address: state.address, walletClass: state.walletClass, network: state.walletNetwork, source },
      })
      .pipe(
        Effect.as("registered" as const),
        Effect.catch((error: HttpError) => Effect.succeed(error.status === 409 ? ("taken" as const) : ("failed" as const))),
      )
  })

const postBackup = (deps: SyncDeps, address: string) =>
  deps.http.json(ActiveAddress, `${deps.origin}/api/ton-space/backup/manual`, { method: "POST", body: { address } })

/**
 * After the word test: POST the manual backup of the address (registering it first when the server
 * does not know it yet, e.g. the create call failed), then refresh the list. True when the server
 * has the flag.
 */
export const reportManualBackup = (deps: SyncDeps, address: string): Effect.Effect<boolean> =>
  postBackup(deps, address).pipe(
    Effect.catch((error: HttpError) =>
      error.status === 404 && error.serverCode === "address_not_found"
        ? registerCurrent(deps, "create").pipe(Effect.andThen(postBackup(deps, address)))
        : Effect.fail(error),
    ),
    Effect.andThen(refreshAddresses(deps)),
    Effect.as(true),
    Effect.catch(() => Effect.succeed(false)),
  )

/** Logout: stop tracking the address; a server that does not know it (404) has nothing to do. */
export const untrackAddress = (deps: Pick<SyncDeps, "http" | "origin">, address: string): Effect.Effect<void, HttpError> =>
  deps.http
    .execute(
      new Request(`${deps.origin}/api/ton-space/addresses/untrack`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address }),
      }),
    )
    .pipe(
      Effect.asVoid,
      Effect.catch((error: HttpError) => (error.status === 404 ? Effect.void : Effect.fail(error))),
    )

// --- the mini-app's wiring ---------------------------------------------------------------------

const depsOf = async (kernel: Kernel): Promise<SyncDeps> => {
  const http = await kernel.runtime.runPromise(
    Effect.gen(function* () {
      return yield* Http
    }),
  )
  return { http, origin: window.location.origin, store: walletStore(kernel) }
}

export const syncAfterSetup = async (kernel: Kernel, source: "create" | "import") => {
  const deps = await depsOf(kernel)
  const outcome = await Effect.runPromise(registerCurrent(deps, source))
  await Effect.runPromise(refreshAddresses(deps))
  return outcome
}

export const syncAfterBackup = async (kernel: Kernel, address: string) => Effect.runPromise(reportManualBackup(await depsOf(kernel), address))

export const syncAddresses = async (kernel: Kernel) => Effect.runPromise(refreshAddresses(await depsOf(kernel)))

export const untrackOnLogout = async (kernel: Kernel, address: string) => Effect.runPromise(untrackAddress(await depsOf(kernel), address))
