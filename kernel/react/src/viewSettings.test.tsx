import { act, cleanup, render } from "@testing-library/react"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { Http, type SessionUser } from "@wallet/kernel"
import {
  KernelProvider,
  makeQueryClient,
  prefetchViewSettings,
  saveViewSettings,
  useViewSettingsRead,
  VIEW_SETTINGS_QUERY_KEY,
  type Kernel,
  type ViewSettingsData,
} from "./index.ts"

const kernelFor = (permissions: Record<string, boolean>) => {
  const saved: Array<unknown> = []
  const api = {
    viewSettings: {
      save: ({ payload }: { payload: unknown }) =>
        Effect.sync(() => {
          saved.push(payload)
          return { status: "SUCCESS", data: { userFlags: { wallet_onboarding_finished: true }, banners: {} } }
        }),
    },
  }
  const user = { id: 7, permissions, abTests: {} } as unknown as SessionUser
  const kernel = { runtime: ManagedRuntime.make(Layer.empty), user: () => user, api: async () => api } as unknown as Kernel
  return { kernel, saved }
}

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe("saving view settings follows accessToSavingSettings (decision 0360)", () => {
  it("without the permission the client does not call the server and keeps the change on the device", async () => {
    const { kernel, saved } = kernelFor({ accessToSavingSettings: false })
    const client = makeQueryClient()
    client.setQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY, { userFlags: { wallet_onboarding_finished: false }, banners: {} })
    expect(await saveViewSettings(kernel, { changedUserFlags: { wallet_onboarding_finished: true } }, client)).toBe("local")
    expect(saved).toEqual([])
    expect(client.getQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY)?.userFlags.wallet_onboarding_finished).toBe(true)
    expect(JSON.parse(localStorage.getItem("wallet:view-settings-local:7")!)).toEqual({ userFlags: { wallet_onboarding_finished: true }, banners: {} })
  })

  it("with the permission it saves on the server", async () => {
    const { kernel, saved } = kernelFor({ accessToSavingSettings: true })
    const client = makeQueryClient()
    expect(await saveViewSettings(kernel, { changedUserFlags: { wallet_onboarding_finished: true } }, client)).toBe("server")
    expect(saved).toEqual([{ changedUserFlags: { wallet_onboarding_finished: true } }])
    expect(localStorage.getItem("wallet:view-settings-local:7")).toBeNull()
  })
})

describe("useViewSettingsRead: wallet main lays its rows out once (issue 17)", () => {
  /** A kernel whose GET /api/view-settings answers (or fails) when the test says. */
  const kernelAnswering = (user: SessionUser | undefined) => {
    let settle: (reply: "ok" | "fail") => void = () => undefined
    const reply = new Promise<"ok" | "fail">((r) => (settle = r))
    const http = {
      json: () =>
        Effect.promise(() => reply).pipe(
          Effect.flatMap((r) =>
            r === "ok"
              ? Effect.succeed({ status: "SUCCESS", data: { userFlags: { expand_cryptocurrency: true }, banners: {} } })
              : Effect.fail(new Error("503")),
          ),
        ),
    }
    const kernel = {
      runtime: ManagedRuntime.make(Layer.succeed(Http, http as never)),
      user: () => user,
      queryClient: makeQueryClient(),
    } as unknown as Kernel
    return { kernel, settle }
  }
  const Probe = () => {
    const { data, settled } = useViewSettingsRead()
    return <p>{`${settled ? "settled" : "pending"} ${data?.userFlags.expand_cryptocurrency ?? "-"}`}</p>
  }
  const user = { id: 7, permissions: {}, abTests: {} } as unknown as SessionUser

  it("is pending until the first read answers, then settled with the flags", async () => {
    const { kernel, settle } = kernelAnswering(user)
    // The start query (main's, beside the accounts) is the read the screen then finds in flight.
    void prefetchViewSettings(kernel, kernel.queryClient!)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Probe />
      </KernelProvider>,
    )
    expect(view.container.textContent).toBe("pending -")
    await act(async () => settle("ok"))
    await view.findByText("settled true")
  })

  it("counts a failed read as settled (main then shows its rows without the server's flags)", async () => {
    const { kernel, settle } = kernelAnswering(user)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Probe />
      </KernelProvider>,
    )
    expect(view.container.textContent).toBe("pending -")
    await act(async () => settle("fail"))
    await view.findByText("settled -")
  })

  it("is settled at once without a signed-in user (nothing to wait for)", () => {
    const { kernel } = kernelAnswering(undefined)
    const view = render(
      <KernelProvider kernel={kernel}>
        <Probe />
      </KernelProvider>,
    )
    expect(view.container.textContent).toBe("settled -")
    expect(prefetchViewSettings(kernel, kernel.queryClient!)).toBeUndefined()
  })
})
