import { act, render, screen } from "@testing-library/react"
import { createMemoryHistory, Outlet, RouterProvider, useSearch } from "@tanstack/react-router"
import { Effect, ManagedRuntime, Layer } from "effect"
import { describe, expect, it, vi } from "vitest"
import { composePlugins, definePlugin, enumParam, I18n, searchParams, type SessionUser } from "@wallet/kernel"
import type { Kernel } from "./context.tsx"
import { buildRouter, defaultBackTarget } from "./router.tsx"

function TabsScreen() {
  const { tab } = useSearch({ strict: false }) as { tab: string }
  return <p>tab is {tab}</p>
}

const plugin = definePlugin({
  id: "demo",
  version: "1.0.0",
  kernel: "^0.1.0",
  routes: [
    {
      id: "tabs",
      parent: "wallet",
      path: "/tabs",
      search: searchParams({ tab: enumParam(["cw", "scw"], "cw") }),
      component: async () => ({ default: TabsScreen }),
    },
    { id: "secret", parent: "wallet", path: "/secret", permissions: ["canSeeSecrets"], component: async () => ({ default: () => <p>secret</p> }) },
    { id: "old", parent: "wallet", path: "/old", redirectTo: "/tabs" },
  ],
  i18n: { namespace: "demo", bundles: { en: async () => ({ default: { hello: "Hello" } }), ru: async () => ({ default: {} }) } },
})
const composition = composePlugins({ region: { id: "test", plugins: { demo: { enabled: true } } }, installed: [plugin] })

const user = (permissions: Record<string, boolean>): SessionUser => ({
  id: 1,
  isNew: false,
  localCurrency: "USD",
  countryAlpha2Code: null,
  countryPhoneAlpha2Code: null,
  restrictionCode: null,
  subdivisionStatus: null,
  isCustodyAvailable: true,
  botUsername: "bot",
  botIsBlocked: false,
  abTests: {},
  permissions,
  createdAt: "",
})

const setup = async (initial: string, signedIn: SessionUser | undefined) => {
  const i18n = await Effect.runPromise(
    Effect.provide(
      Effect.map(I18n, (s) => s),
      I18n.layer({ language: "en", namespaces: composition.i18nNamespaces }),
    ),
  )
  const kernel = { composition, i18n, user: () => signedIn, runtime: ManagedRuntime.make(Layer.empty) } as unknown as Kernel
  const denied = vi.fn()
  const router = buildRouter({
    kernel,
    composition,
    root: () => <RootOutlet />,
    shellRoutes: [
      { id: "start", parent: "root", path: "/", component: () => <p>startup</p> },
      { id: "main", parent: "wallet", path: "/main", component: () => <p>main</p> },
    ],
    onGateDenied: denied,
    history: createMemoryHistory({ initialEntries: [initial] }),
  })
  // The load outside act: Preact's act holds every render until its callback settles, and the
  // router's load waits for a render (React's act flushes while it waits; decision 0011).
  render(<RouterProvider router={router} />)
  await router.load()
  await act(async () => {})
  return { router, denied, i18n }
}

function RootOutlet() {
  return <Outlet />
}

describe("buildRouter", () => {
  it("mounts a plugin route with its lenient search: an unknown enum value becomes the default", async () => {
    const { router, i18n } = await setup("/tabs?tab=bogus", user({}))
    expect(router.state.location.pathname).toBe("/tabs")
    expect(await screen.findByText("tab is cw")).toBeTruthy()
    // The route's loader loaded the plugin's i18n namespace.
    expect(i18n.t("demo:hello")).toBe("Hello")
  })

  it("turns a user without the permission away to the back target and reports the gate", async () => {
    const { router, denied } = await setup("/secret", user({}))
    expect(router.state.location.pathname).toBe("/main")
    expect(denied).toHaveBeenCalledWith(expect.objectContaining({ globalId: "demo/secret" }), ["canSeeSecrets"])
    const allowed = await setup("/secret", user({ canSeeSecrets: true }))
    expect(allowed.router.state.location.pathname).toBe("/secret")
  })

  it("follows redirect routes and keeps signed-out users out of the wallet area", async () => {
    expect((await setup("/old", user({}))).router.state.location.pathname).toBe("/tabs")
    expect((await setup("/tabs", undefined)).router.state.location.pathname).toBe("/")
  })

  it("sends system back to custody home, or to the TON space without custody", () => {
    expect(defaultBackTarget(user({}), "/settings")).toBe("/main")
    expect(defaultBackTarget(user({}), "/scw/settings")).toBe("/scw")
    expect(defaultBackTarget({ ...user({}), isCustodyAvailable: false }, "/settings")).toBe("/scw")
  })
})
