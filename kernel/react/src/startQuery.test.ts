import { QueryObserver } from "@tanstack/react-query"
import { describe, expect, it } from "vitest"
import { kernelQueryClient, makeQueryClient, registerStartQuery, runStartQueries } from "./query.tsx"
import type { Kernel } from "./context.tsx"

describe("start queries (decision 0007)", () => {
  it("run the screen's first request before it renders; the screen's own query then reuses it", async () => {
    const client = makeQueryClient()
    const kernel = { queryClient: client } as unknown as Kernel
    let fetches = 0
    let answer!: (value: string) => void
    const options = {
      queryKey: ["test", "start"],
      queryFn: () => {
        fetches++
        return new Promise<string>((resolve) => (answer = resolve))
      },
    }
    registerStartQuery("/start-test", (_kernel, c) => c.prefetchQuery(options))
    let settled = false
    const started = runStartQueries(kernel, "/start-test").then(() => (settled = true))
    expect(fetches).toBe(1)
    expect(kernelQueryClient(kernel).getQueryState(["test", "start"])?.fetchStatus).toBe("fetching")
    // The screen mounts while the request is in flight: no second request.
    const observer = new QueryObserver(client, options)
    const unsubscribe = observer.subscribe(() => undefined)
    expect(settled).toBe(false)
    answer("balances")
    await started
    expect(settled).toBe(true)
    await expect.poll(() => observer.getCurrentResult().data).toBe("balances")
    expect(fetches).toBe(1)
    unsubscribe()
  })

  it("do nothing for a path without one, and a failing one never escapes", async () => {
    const kernel = { queryClient: makeQueryClient() } as unknown as Kernel
    expect(() => runStartQueries(kernel, "/nothing-registered")).not.toThrow()
    registerStartQuery("/throws", () => {
      throw new Error("boom")
    })
    expect(() => runStartQueries(kernel, "/throws")).not.toThrow()
    // Whatever happened, the promise the host waits on settles.
    await runStartQueries(kernel, "/throws")
    await runStartQueries(kernel, "/nothing-registered")
  })
})
