import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { SessionUser } from "@wallet/kernel"
import { KernelProvider, makeQueryClient, VIEW_SETTINGS_QUERY_KEY, type Kernel, type ViewSettingsData } from "@wallet/kernel-react"
import { custodyPlugin } from "../../manifest.ts"
import { SendIntro } from "./SendIntro.tsx"

const strings = (await custodyPlugin.i18n!.bundles.en()).default as Record<string, any>
const lookup = (full: string) => {
  const key = full.split(":")[1] ?? ""
  const found = key.split(".").reduce<any>((node, part) => node?.[part], strings)
  return typeof found === "string" ? found : key
}

const setup = (userFlags: Record<string, boolean>, accessToSavingSettings = true) => {
  const saved: Array<unknown> = []
  const client = makeQueryClient()
  client.setQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY, { userFlags, banners: {} })
  const api = {
    viewSettings: {
      save: ({ payload }: { payload: { changedUserFlags?: Record<string, boolean> } }) =>
        Effect.sync(() => {
          saved.push(payload)
          return { status: "SUCCESS", data: { userFlags: { ...userFlags, ...payload.changedUserFlags }, banners: {} } }
        }),
    },
  }
  const user = { id: 43, isCustodyAvailable: true, permissions: { accessToSavingSettings }, abTests: {} } as unknown as SessionUser
  const kernel = {
    runtime: ManagedRuntime.make(Layer.empty),
    queryClient: client,
    user: () => user,
    api: async () => api,
    i18n: { t: lookup, language: () => "en", subscribe: () => () => undefined },
    telegram: { haptic: () => undefined },
  } as unknown as Kernel
  const view = render(
    <KernelProvider kernel={kernel}>
      <SendIntro />
    </KernelProvider>,
  )
  return { view, saved }
}

afterEach(() => {
  cleanup()
  localStorage.clear()
})

describe("the first-send intro acts on send_onboarding_finished (decision 0360)", () => {
  it("shows before the first send (flag false)", () => {
    const { view } = setup({ send_onboarding_finished: false })
    expect(view.getByTestId("send-intro").textContent).toContain("How sending works")
  })

  it("is not there once finished", () => {
    const { view } = setup({ send_onboarding_finished: true })
    expect(view.queryByTestId("send-intro")).toBeNull()
  })

  it("'Got it' saves send_onboarding_finished on the server", async () => {
    const { view, saved } = setup({ send_onboarding_finished: false })
    fireEvent.click(view.getByRole("button", { name: "Got it" }))
    await waitFor(() => expect(view.queryByTestId("send-intro")).toBeNull())
    await waitFor(() => expect(saved).toEqual([{ changedUserFlags: { send_onboarding_finished: true } }]))
  })

  it("without accessToSavingSettings the close stays on the device and the server is not called", async () => {
    const { view, saved } = setup({ send_onboarding_finished: false }, false)
    fireEvent.click(view.getByRole("button", { name: "Close" }))
    await waitFor(() => expect(view.queryByTestId("send-intro")).toBeNull())
    expect(JSON.parse(localStorage.getItem("wallet:view-settings-local:43") ?? "null")).toEqual({ userFlags: { send_onboarding_finished: true }, banners: {} })
    expect(saved).toEqual([])
  })
})
