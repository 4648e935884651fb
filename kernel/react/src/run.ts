import type { Effect } from "effect"
import type { Kernel } from "./context.tsx"

/** Runs an effect on the app's runtime (services: Http, KernelClient, Storage, …). */
export const runEffect = <A, E>(kernel: Kernel, effect: Effect.Effect<A, E, any>): Promise<A> => kernel.runtime.runPromise(effect)
