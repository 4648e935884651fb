/**
 * The wallet screens' data access: the typed clients of the custody contracts (effect's
 * HttpApiClient over the kernel's Http policy), built once per kernel on first use, and a small
 * load hook with retry. These screens are lazy routes, so the HttpApi machinery stays off main.
 */
import { useCallback, useEffect, useRef, useState } from "react"
import { Effect } from "effect"
import { FetchHttpClient } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Http, PreferencesStore } from "@wallet/kernel"
import { runEffect, type Kernel } from "@wallet/kernel-react"
import { CustodyApi } from "../../api.ts"
import { CustodyChainApi } from "../../chain-api.ts"

export type CustodyClient = HttpApiClient.ForApi<typeof CustodyApi>
export type ChainClient = HttpApiClient.ForApi<typeof CustodyChainApi>

export interface WalletClients {
  readonly custody: CustodyClient
  readonly chain: ChainClient
}

const clients = new WeakMap<Kernel, Promise<WalletClients>>()

export const walletClients = (kernel: Kernel): Promise<WalletClients> => {
  let made = clients.get(kernel)
  if (!made) {
    made = runEffect(
      kernel,
      Effect.gen(function* () {
        const http = yield* Http
        const withPolicy = <A, E>(make: Effect.Effect<A, E, any>) =>
          make.pipe(Effect.provide(FetchHttpClient.layer), Effect.provideService(FetchHttpClient.Fetch, http.fetch)) as Effect.Effect<A, E>
        const baseUrl = window.location.origin
        const custody = yield* withPolicy(HttpApiClient.make(CustodyApi, { baseUrl }))
        const chain = yield* withPolicy(HttpApiClient.make(CustodyChainApi, { baseUrl }))
        return { custody, chain }
      }),
    )
    clients.set(kernel, made)
    made.catch(() => clients.delete(kernel))
  }
  return made
}

/** Runs one call with the clients; a failure rejects with the contract's error (or HttpError). */
export const callWallet = <A, E>(kernel: Kernel, run: (clients: WalletClients) => Effect.Effect<A, E, any>): Promise<A> =>
  walletClients(kernel).then((c) => runEffect(kernel, run(c)))

/** The user's fiat (the device preference, USD by default). */
export const loadFiat = (kernel: Kernel): Promise<string> =>
  runEffect(kernel, kernel.storage.load(PreferencesStore)).then(
    (p) => p.fiatCurrency,
    () => "USD",
  )

export type Loaded<A> = { readonly state: "loading" } | { readonly state: "ok"; readonly value: A } | { readonly state: "error"; readonly error: unknown }

/**
 * Loads while mounted; the answer of an older input is dropped. `reload` runs it again from the
 * loading state (retry); `refresh` runs it again keeping the shown value until the answer (polling).
 */
export function useLoaded<A>(run: () => Promise<A>, deps: ReadonlyArray<unknown>): { readonly loaded: Loaded<A>; readonly reload: () => void; readonly refresh: () => void } {
  const [loaded, setLoaded] = useState<Loaded<A>>({ state: "loading" })
  const [tick, setTick] = useState(0)
  const generation = useRef(0)
  const keep = useRef(false)
  const runRef = useRef(run)
  runRef.current = run
  useEffect(() => {
    const mine = ++generation.current
    const keepValue = keep.current
    keep.current = false
    if (!keepValue) setLoaded((current) => (current.state === "loading" ? current : { state: "loading" }))
    runRef.current().then(
      (value) => generation.current === mine && setLoaded({ state: "ok", value }),
      (error: unknown) => generation.current === mine && !keepValue && setLoaded({ state: "error", error }),
    )
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick])
  const reload = useCallback(() => setTick((n) => n + 1), [])
  const refresh = useCallback(() => {
    keep.current = true
    setTick((n) => n + 1)
  }, [])
  return { loaded, reload, refresh }
}

/** Spec 1 §9: asset data is stale after 60 s; open screens refresh it on that beat. */
export const ASSETS_REFRESH_MS = 60_000

/** The error's `_tag` (contract errors are tagged), e.g. "CustodyForbidden". */
export const errorTag = (error: unknown): string | undefined =>
  error && typeof error === "object" && typeof (error as { _tag?: unknown })._tag === "string" ? (error as { _tag: string })._tag : undefined
