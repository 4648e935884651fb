import { act, cleanup, render, screen } from "@testing-library/react"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { FeatureFlags, Http, type SessionUser } from "@wallet/kernel"
import { experimentsOf, fetchFlagsAndBuckets, KernelProvider, useExperiment, useFlag, type Kernel } from "./index.ts"

/** A kernel whose Http answers the flags and experiments calls from `server`. */
const kernelWith = async (server: { flags: Record<string, boolean>; buckets: Record<string, string> }, user?: Partial<SessionUser>) => {
  const calls: Array<string> = []
  const http = {
    json: (_check: unknown, url: string) =>
      Effect.sync(() => {
        calls.push(new URL(url).pathname)
        return url.endsWith("/api/experiments") ? { buckets: { ...server.buckets } } : { ...server.flags }
      }),
  }
  const runtime = ManagedRuntime.make(Layer.mergeAll(FeatureFlags.layer([]), Layer.succeed(Http, http as unknown as Http["Service"])))
  const flags = await runtime.runPromise(
    Effect.gen(function* () {
      return yield* FeatureFlags
    }),
  )
  const sessionUser = user ? ({ id: 42, permissions: {}, abTests: {}, ...user } as SessionUser) : undefined
  const kernel = { flags, runtime, composition: { plugins: [] }, user: () => sessionUser, session: { onEvent: () => () => undefined } } as unknown as Kernel
  return { kernel, calls }
}

function Probe() {
  const devTools = useFlag("dev_tools")
  const bucket = useExperiment("wallet-action-buttons")
  return (
    <p>
      <span data-testid="dev">{devTools ? "dev on" : "dev off"}</span>
      <span data-testid="bucket">{bucket}</span>
    </p>
  )
}

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  localStorage.clear()
})

describe("useFlag and useExperiment (decision 0360)", () => {
  it("re-render the screen when a refresh changes a flag or a bucket", async () => {
    const server = { flags: { dev_tools: false }, buckets: {} as Record<string, string> }
    const { kernel } = await kernelWith(server)
    render(
      <KernelProvider kernel={kernel}>
        <Probe />
      </KernelProvider>,
    )
    expect(screen.getByTestId("dev").textContent).toBe("dev off")
    expect(screen.getByTestId("bucket").textContent).toBe("a")
    server.flags.dev_tools = true
    server.buckets["wallet-action-buttons"] = "b"
    await act(() => fetchFlagsAndBuckets(kernel, "http://app.test"))
    expect(screen.getByTestId("dev").textContent).toBe("dev on")
    expect(screen.getByTestId("bucket").textContent).toBe("b")
  })

  it("starts from the session's abTests", async () => {
    const { kernel } = await kernelWith({ flags: {}, buckets: {} }, { abTests: { "wallet-action-buttons": "b" } })
    expect(experimentsOf(kernel).bucket("wallet-action-buttons")).toBe("b")
  })

  it("refetches flags and buckets on the 60 s beat, not before (signed-in user)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] })
    const server = { flags: { dev_tools: false }, buckets: {} as Record<string, string> }
    const { kernel, calls } = await kernelWith(server, { abTests: {} })
    render(
      <KernelProvider kernel={kernel}>
        <Probe />
      </KernelProvider>,
    )
    // The boot's own flags call seeds the query: nothing is fetched at mount.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(59_000)
    })
    const flagCalls = () => calls.filter((path) => path !== "/api/view-settings").sort()
    expect(flagCalls()).toEqual([])
    // The view settings are read at start (prefetch 1 s after load).
    expect(calls).toEqual(["/api/view-settings"])
    server.flags.dev_tools = true
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_000)
    })
    expect(flagCalls()).toEqual(["/api/experiments", "/api/feature-flags"])
    expect(screen.getByTestId("dev").textContent).toBe("dev on")
  })
})
