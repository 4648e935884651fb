import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { SessionUser } from "@wallet/kernel"
import { KernelProvider, makeQueryClient, VIEW_SETTINGS_QUERY_KEY, type Kernel, type ViewSettingsData } from "@wallet/kernel-react"
import en from "../i18n/en.json" with { type: "json" }
import { passcodePlugin } from "../manifest.ts"
import PasscodeBanner from "./MainBanner.tsx"

const navigate = vi.fn<(options: unknown) => Promise<void>>(async () => undefined)
vi.mock("@tanstack/react-router", async (original) => ({ ...(await original<object>()), useNavigate: () => navigate }))
/** The user's passcode status as the passcode server answers it. */
const status = { passcodeType: null as string | null }
const infoCalls = vi.fn()
vi.mock("./runtime.ts", () => ({
  passcodeSession: () => ({
    info: async () => {
      infoCalls()
      return { passcodeType: status.passcodeType }
    },
  }),
}))

const lookup = (full: string) => {
  const key = full.split(":")[1] ?? ""
  const found = key.split(".").reduce<any>((node, part) => node?.[part], en)
  return typeof found === "string" ? found : key
}

const setup = (banners: Record<string, boolean>, accessToSavingSettings = true) => {
  const saved: Array<unknown> = []
  const client = makeQueryClient()
  client.setQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY, { userFlags: {}, banners })
  const api = {
    viewSettings: {
      save: ({ payload }: { payload: { changedBanners?: Record<string, boolean> } }) =>
        Effect.sync(() => {
          saved.push(payload)
          return { status: "SUCCESS", data: { userFlags: {}, banners: { ...banners, ...payload.changedBanners } } }
        }),
    },
  }
  const user = { id: 42, isCustodyAvailable: true, permissions: { accessToSavingSettings }, abTests: {} } as unknown as SessionUser
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
      <PasscodeBanner />
    </KernelProvider>,
  )
  return { view, saved }
}

afterEach(() => {
  cleanup()
  localStorage.clear()
  navigate.mockClear()
  infoCalls.mockClear()
  status.passcodeType = null
})

describe("the passcode banner acts on display_passcode_banner (decision 0360)", () => {
  it("is the passcode plugin's main section", () => {
    expect(passcodePlugin.main?.sections?.map((s) => s.id)).toEqual(["banner"])
  })

  it("shows while the flag is true and there is no passcode; its button opens the create flow", async () => {
    const { view } = setup({ display_passcode_banner: true })
    const banner = await view.findByTestId("passcode-banner")
    expect(banner.textContent).toContain("Protect your wallet with a passcode")
    fireEvent.click(view.getByRole("button", { name: "Create passcode" }))
    await waitFor(() => expect(navigate).toHaveBeenCalledWith(expect.objectContaining({ to: "/passcode/settings", search: { action: "create" } })))
  })

  it("is not there for a user who has a passcode", async () => {
    status.passcodeType = "pin4"
    const { view } = setup({ display_passcode_banner: true })
    await waitFor(() => expect(infoCalls).toHaveBeenCalled())
    expect(view.queryByTestId("passcode-banner")).toBeNull()
  })

  it("is not there while the flag is false, and does not even ask for the passcode status", async () => {
    const { view } = setup({ display_passcode_banner: false })
    expect(view.queryByTestId("passcode-banner")).toBeNull()
    expect(infoCalls).not.toHaveBeenCalled()
  })

  it("closing it saves changedBanners on the server and hides it", async () => {
    const { view, saved } = setup({ display_passcode_banner: true })
    fireEvent.click(await view.findByRole("button", { name: "Close" }))
    await waitFor(() => expect(view.queryByTestId("passcode-banner")).toBeNull())
    await waitFor(() => expect(saved).toEqual([{ changedBanners: { display_passcode_banner: false } }]))
  })

  it("without accessToSavingSettings the close stays on the device and the server is not called", async () => {
    const { view, saved } = setup({ display_passcode_banner: true }, false)
    fireEvent.click(await view.findByRole("button", { name: "Close" }))
    await waitFor(() => expect(view.queryByTestId("passcode-banner")).toBeNull())
    expect(JSON.parse(localStorage.getItem("wallet:view-settings-local:42") ?? "null")).toEqual({ userFlags: {}, banners: { display_passcode_banner: false } })
    expect(saved).toEqual([])
  })
})
