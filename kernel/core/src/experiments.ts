/**
 * Experiments (spec 3 §3; decision 0360): the session's `abTests` buckets ("a", "b", "c") behind one
 * kernel API. A screen asks `experiments.bucket(name)` (React: `useExperiment(name)`); an unknown
 * experiment or a bucket outside its variants reads as "a", the control. The buckets arrive with
 * the session (`ab_tests` of auth init) and are refreshed with the feature flags (every 60 s).
 */
import * as Check from "./check.ts"

export type Bucket = "a" | "b" | "c"

export interface ExperimentDefinition {
  readonly name: string
  readonly variants: ReadonlyArray<Bucket>
  readonly description: string
  /** The plugin whose screen switches on it (`actedOnBy`), or the plugin still to come (`pendingPlugin`). */
  readonly actedOnBy?: string
  readonly pendingPlugin?: string
}

/** Every experiment of the spec, with its variants and who acts on it. */
export const EXPERIMENTS: ReadonlyArray<ExperimentDefinition> = [
  { name: "wallet-action-buttons", variants: ["a", "b"], description: "b: wallet main's action buttons as a compact row", actedOnBy: "home" },
  { name: "trading-default-tab", variants: ["a", "b"], description: "b: trade opens on the gainers ranking", actedOnBy: "trade" },
  { name: "p2p-offer-price-test", variants: ["a", "b", "c"], description: "offer price presentation in P2P", pendingPlugin: "p2p" },
  { name: "wallet-onboarding-earn", variants: ["a", "b"], description: "b: the wallet onboarding ends on earn", pendingPlugin: "earn" },
  { name: "p2p-express-only", variants: ["a", "b"], description: "b: P2P shows express only", pendingPlugin: "p2p" },
  { name: "erc20-withdrawal-fee", variants: ["a", "b"], description: "b: the ERC20 withdrawal fee shown up front", pendingPlugin: "custody-erc20" },
]

export const EXPERIMENT_NAMES: ReadonlyArray<string> = EXPERIMENTS.map((e) => e.name)

const BUCKETS: ReadonlyArray<string> = ["a", "b", "c"]
export const isBucket = (value: unknown): value is Bucket => typeof value === "string" && BUCKETS.includes(value)

/** The bucket of `name` in `buckets`: the control "a" when absent, unknown or outside the declared variants. */
export const bucketOf = (buckets: Readonly<Record<string, string>> | undefined, name: string): Bucket => {
  const value = buckets?.[name]
  if (!isBucket(value)) return "a"
  const declared = EXPERIMENTS.find((e) => e.name === name)
  return declared === undefined || declared.variants.includes(value) ? value : "a"
}

/** `GET /api/experiments`: the user's effective buckets (per-user over for-all). */
export const ExperimentsCheck = Check.struct({ buckets: Check.record(Check.string) })

type Listener = (buckets: Readonly<Record<string, string>>) => void

/** The buckets of the signed-in user; replaced by each refresh, listeners told when something changed. */
export class Experiments {
  private current: Readonly<Record<string, string>>
  private readonly listeners = new Set<Listener>()
  constructor(initial: Readonly<Record<string, string>> = {}) {
    this.current = { ...initial }
  }
  bucket(name: string): Bucket {
    return bucketOf(this.current, name)
  }
  snapshot(): Readonly<Record<string, string>> {
    return this.current
  }
  apply(buckets: Readonly<Record<string, string>>): void {
    const next: Record<string, string> = {}
    for (const [name, value] of Object.entries(buckets)) if (typeof value === "string") next[name] = value
    const same = Object.keys(next).length === Object.keys(this.current).length && Object.entries(next).every(([k, v]) => this.current[k] === v)
    if (same) return
    this.current = next
    for (const listener of this.listeners) listener(next)
  }
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
}
