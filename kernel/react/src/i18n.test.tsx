import { act, render, screen } from "@testing-library/react"
import { Effect, ManagedRuntime, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { I18n } from "@wallet/kernel"
import { KernelProvider, useT, type Kernel } from "./index.ts"

const bundles = { s: { en: { title: "Language", saved: "Language changed" }, ru: { title: "Язык", saved: "Язык изменён" } } }

const kernelWith = async () => {
  const i18n = await Effect.runPromise(
    Effect.provide(
      Effect.map(I18n, (s) => s),
      I18n.layerTest("en", bundles),
    ),
  )
  await Effect.runPromise(i18n.loadNamespace("s"))
  return { i18n, kernel: { i18n, composition: { plugins: [] }, runtime: ManagedRuntime.make(Layer.empty), user: () => undefined } as unknown as Kernel }
}

describe("useT on react-i18next", () => {
  it("re-renders in the new language and a handler that awaited the change speaks it (bug: snackbar stayed English)", async () => {
    const { i18n, kernel } = await kernelWith()
    const said: string[] = []
    function Screen() {
      const t = useT("s")
      const choose = async () => {
        await Effect.runPromise(i18n.changeLanguage("ru"))
        said.push(t("saved"))
      }
      return (
        <button type="button" onClick={() => void choose()}>
          {t("title")}
        </button>
      )
    }
    render(
      <KernelProvider kernel={kernel}>
        <Screen />
      </KernelProvider>,
    )
    expect(screen.getByRole("button").textContent).toBe("Language")
    await act(async () => {
      screen.getByRole("button").click()
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    await screen.findByText("Язык")
    expect(said).toEqual(["Язык изменён"])
  })
})
