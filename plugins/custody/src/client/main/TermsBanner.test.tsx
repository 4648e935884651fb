import { cleanup, fireEvent, render, waitFor } from "@testing-library/react"
import { Suspense } from "react"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { SessionUser } from "@wallet/kernel"
import { KernelProvider, makeQueryClient, VIEW_SETTINGS_QUERY_KEY, type Kernel, type ViewSettingsData } from "@wallet/kernel-react"
import { custodyPlugin } from "../../manifest.ts"
import TermsBanner, { TERMS_URL } from "./TermsBanner.tsx"

const strings = (await custodyPlugin.i18n!.bundles.en()).default as Record<string, any>
const lookup = (full: string) => {
  const key = full.split(":")[1] ?? ""
  const found = key.split(".").reduce<any>((node, part) => node?.[part], strings)
  return typeof found === "string" ? found : key
}

/** A kernel whose view settings are `banners`, whose server save is recorded, with or without the permission. */
const setup = (banners: Record<string, boolean>, accessToSavingSettings = true) => {
  const saved: Array<unknown> = []
  const opened: Array<string> = []
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
  const user = { id: 41, isCustodyAvailable: true, permissions: { accessToSavingSettings }, abTests: {} } as unknown as SessionUser
  const kernel = {
    runtime: ManagedRuntime.make(Layer.empty),
    queryClient: client,
    user: () => user,
    api: async () => api,
    i18n: { t: lookup, language: () => "en", subscribe: () => () => undefined },
    telegram: { haptic: () => undefined, openLink: (url: string) => opened.push(url) },
  } as unknown as Kernel
  const view = render(
    <KernelProvider kernel={kernel}>
      <Suspense fallback={null}>
        <TermsBanner />
      </Suspense>
    </KernelProvider>,
  )
  return { view, saved, opened, client }
}

afterEach(() => {
  cleanup()
  localStorage.clear()
  vi.restoreAllMocks()
})

describe("the terms banner acts on display_terms_banner (decision 0360)", () => {
  it("is custody's main section", () => {
    expect(custodyPlugin.main?.sections?.map((s) => s.id)).toEqual(["terms-banner"])
  })

  it("shows while the flag is true, with the link to the terms", () => {
    const { view, opened } = setup({ display_terms_banner: true })
    expect(view.getByTestId("terms-banner").textContent).toContain("Terms of service updated")
    fireEvent.click(view.getByRole("button", { name: "Read the terms" }))
    expect(opened).toEqual([TERMS_URL])
  })

  it("is not there while the flag is false", () => {
    const { view } = setup({ display_terms_banner: false })
    expect(view.queryByTestId("terms-banner")).toBeNull()
  })

  it("closing it saves changedBanners on the server and hides it", async () => {
    const { view, saved } = setup({ display_terms_banner: true })
    const close = view.getByRole("button", { name: "Close" })
    close.focus()
    fireEvent.click(close)
    await waitFor(() => expect(view.queryByTestId("terms-banner")).toBeNull())
    await waitFor(() => expect(saved).toEqual([{ changedBanners: { display_terms_banner: false } }]))
    expect(localStorage.getItem("wallet:view-settings-local:41")).toBeNull()
  })

  it("without accessToSavingSettings the close is kept on the device and the server is not called", async () => {
    const { view, saved, client } = setup({ display_terms_banner: true }, false)
    fireEvent.click(view.getByRole("button", { name: "Close" }))
    await waitFor(() => expect(view.queryByTestId("terms-banner")).toBeNull())
    await waitFor(() =>
      expect(JSON.parse(localStorage.getItem("wallet:view-settings-local:41") ?? "null")).toEqual({ userFlags: {}, banners: { display_terms_banner: false } }),
    )
    expect(saved).toEqual([])
    expect(client.getQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY)?.banners.display_terms_banner).toBe(false)
  })
})
