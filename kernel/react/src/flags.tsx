/**
 * Feature flags and experiments in React (decision 0360): `useFlag(key)` and `useExperiment(name)`
 * re-render their screen when a refresh changes the value. `<FlagsRefresher/>` (mounted by the
 * kernel's query provider for a signed-in user) refetches `GET /api/feature-flags` and
 * `GET /api/experiments` through TanStack Query with the 60 s stale time (spec 1 §9): every 60 s
 * while the page is visible and on focus once stale. The boot's own flags call seeds it, so the
 * first refetch comes a minute after start.
 */
import { useEffect, useSyncExternalStore } from "react"
import { useQuery, useQueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { Experiments, ExperimentsCheck, FeatureFlagsCheck, Http, KERNEL_FEATURE_FLAGS, type Bucket, type DegradationFlag } from "@wallet/kernel"
import { useKernel, type Kernel } from "./context.tsx"
import { STALE_TIME } from "./queryTimes.ts"

/** The query key of the flags and buckets refresh. */
export const FLAGS_QUERY_KEY = ["kernel", "flags-and-experiments"] as const

const experimentsByKernel = new WeakMap<object, Experiments>()

/** The kernel's experiments (made on first use from the session's `abTests`). */
export const experimentsOf = (kernel: Pick<Kernel, "user">): Experiments => {
  let experiments = experimentsByKernel.get(kernel)
  if (!experiments) {
    experiments = new Experiments((typeof kernel.user === "function" ? kernel.user()?.abTests : undefined) ?? {})
    experimentsByKernel.set(kernel, experiments)
  }
  return experiments
}

/** A kernel without the FeatureFlags service (a test's partial kernel) reads the declared defaults. */
const declaredDefault = (kernel: Kernel, key: string): boolean =>
  [...KERNEL_FEATURE_FLAGS, ...(kernel.composition?.featureFlags ?? [])].find((flag) => flag.key === key)?.default === true

const flagValue = (kernel: Kernel, key: string): boolean => (kernel.flags ? Effect.runSync(kernel.flags.isEnabled(key)) : declaredDefault(kernel, key))

const noSubscription = () => () => undefined

/** Whether flag `key` is on; re-renders when a refresh changes it. */
export function useFlag(key: string): boolean {
  const kernel = useKernel()
  return useSyncExternalStore(kernel.flags ? (listener) => kernel.flags.subscribe(listener) : noSubscription, () => flagValue(kernel, key))
}

/** True while the area a degradation banner guards is disabled (its flag is off). */
export const useDegraded = (flag: DegradationFlag): boolean => !useFlag(flag)

/** The user's bucket of experiment `name` ("a" control, "b", "c"); re-renders when a refresh changes it. */
export function useExperiment(name: string): Bucket {
  const kernel = useKernel()
  const experiments = experimentsOf(kernel)
  return useSyncExternalStore(
    (listener) => experiments.subscribe(listener),
    () => experiments.bucket(name),
  )
}

interface FlagsAndBuckets {
  readonly flags: Readonly<Record<string, boolean>>
  readonly buckets: Readonly<Record<string, string>> | undefined
}

/** One refresh: both calls in parallel; a failed experiments call keeps the buckets held. */
export const fetchFlagsAndBuckets = (kernel: Kernel, origin: string): Promise<FlagsAndBuckets> =>
  kernel.runtime.runPromise(
    Effect.gen(function* () {
      const http = yield* Http
      const [flags, buckets] = yield* Effect.all(
        [
          http.json(FeatureFlagsCheck, `${origin}/api/feature-flags`),
          http.json(ExperimentsCheck, `${origin}/api/experiments`).pipe(
            Effect.map((r) => r.buckets),
            Effect.orElseSucceed(() => undefined),
          ),
        ],
        { concurrency: 2 },
      )
      yield* kernel.flags.applyServerFlags(flags)
      if (buckets) experimentsOf(kernel).apply(buckets)
      return { flags, buckets }
    }),
  )

/** Keeps flags and buckets fresh for the signed-in user (renders nothing). */
export function FlagsRefresher({ kernel }: { readonly kernel: Kernel }) {
  const client = useQueryClient()
  // The 60 s beat from mount, while the page is visible (a hidden page refetches on focus).
  useEffect(() => {
    const timer = setInterval(() => {
      if (typeof document === "undefined" || document.visibilityState !== "hidden") void client.refetchQueries({ queryKey: FLAGS_QUERY_KEY })
    }, STALE_TIME.featureFlags)
    return () => clearInterval(timer)
  }, [client])
  useQuery({
    queryKey: FLAGS_QUERY_KEY,
    queryFn: () => fetchFlagsAndBuckets(kernel, window.location.origin),
    initialData: (): FlagsAndBuckets => ({ flags: Effect.runSync(kernel.flags.snapshot), buckets: experimentsOf(kernel).snapshot() }),
    initialDataUpdatedAt: () => Date.now(),
    staleTime: STALE_TIME.featureFlags,
    refetchOnWindowFocus: true,
  })
  return null
}
