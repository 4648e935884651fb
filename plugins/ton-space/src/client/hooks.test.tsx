import { act, render } from "@testing-library/react"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { QueryClientProvider } from "@tanstack/react-query"
import { makeQueryClient } from "@wallet/kernel-react"
import { useChainQuery, type Loaded } from "./hooks.ts"

/** Renders useChainQuery (on the kernel's query client defaults) with loads answered by the test, one deferred promise per call. */
const harness = () => {
  const calls: Array<{ key: string; settle: (outcome: { ok: string } | { fail: string }) => void }> = []
  let latest: Loaded<string> | undefined
  function Probe({ loadKey }: { readonly loadKey: string }) {
    latest = useChainQuery(["test", loadKey], () =>
      Effect.flatMap(
        Effect.promise(() => new Promise<{ ok: string } | { fail: string }>((settle) => calls.push({ key: loadKey, settle }))),
        (outcome) => ("ok" in outcome ? Effect.succeed(outcome.ok) : Effect.fail(new Error(outcome.fail))),
      ),
    )
    return null
  }
  const client = makeQueryClient()
  const Wrapped = ({ loadKey }: { readonly loadKey: string }) => (
    <QueryClientProvider client={client}>
      <Probe loadKey={loadKey} />
    </QueryClientProvider>
  )
  return { calls, Probe: Wrapped, state: () => latest! }
}

/** Lets the answer through the effect, the query and TanStack's batched notifications (a few macrotasks). */
const flush = () =>
  act(async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0))
  })

describe("useChainQuery", () => {
  it("keeps the last data of the same key when its reload fails", async () => {
    const h = harness()
    render(<h.Probe loadKey="day" />)
    h.calls[0]!.settle({ ok: "day points" })
    await flush()
    expect(h.state()).toMatchObject({ data: "day points", loading: false })
    act(() => h.state().reload())
    await flush()
    h.calls[1]!.settle({ fail: "timeout" })
    await flush()
    expect(h.state().data).toBe("day points")
    expect(h.state().error?.message).toBe("timeout")
  })

  it("shows no data of another key when the new key fails (bug: a failed week chart showed the day's points)", async () => {
    const h = harness()
    const view = render(<h.Probe loadKey="day" />)
    h.calls[0]!.settle({ ok: "day points" })
    await flush()
    view.rerender(<h.Probe loadKey="week" />)
    await flush()
    expect(h.state()).toMatchObject({ data: undefined, loading: true })
    h.calls.find((call) => call.key === "week")!.settle({ fail: "chart unavailable" })
    await flush()
    expect(h.state().data).toBeUndefined()
    expect(h.state().error?.message).toBe("chart unavailable")
    expect(h.state().loading).toBe(false)
  })
})
