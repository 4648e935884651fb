import type { Effect } from "effect"
import type { Kernel } from "./context.tsx"
import { runEffect } from "./run.ts"

/**
 * One client per kernel, made on first use with `make` (typically `makeApiClient(SomeApi)` from
 * `@wallet/kernel/client`) and shared by every caller after; a failed make is forgotten so the next
 * call tries again. Takes no HttpApi code itself, so it costs the first screen nothing.
 */
export const clientPerKernel = <C, E>(make: Effect.Effect<C, E, any>): ((kernel: Kernel) => Promise<C>) => {
  const clients = new WeakMap<Kernel, Promise<C>>()
  return (kernel) => {
    let client = clients.get(kernel)
    if (!client) {
      client = runEffect(kernel, make)
      clients.set(kernel, client)
      client.catch(() => clients.delete(kernel))
    }
    return client
  }
}
