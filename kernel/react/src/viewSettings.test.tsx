import { Effect, Layer, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { SessionUser } from "@wallet/kernel"
import { makeQueryClient, saveViewSettings, VIEW_SETTINGS_QUERY_KEY, type Kernel, type ViewSettingsData } from "./index.ts"

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

afterEach(() => localStorage.clear())

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
