import { act, render } from "@testing-library/react"
import { useState } from "react"
import { describe, expect, it } from "vitest"
import type { BottomButtonParams } from "@wallet/kernel"
import { MainButton, SecondaryButton } from "./buttons.tsx"
import { KernelProvider, type Kernel } from "./context.tsx"

/** A Telegram double: bottom buttons record their last params; the theme can change. */
const fakeTelegram = (theme: Record<string, string>) => {
  let current = theme
  const listeners = new Set<(t: Record<string, string>) => void>()
  const button = () => {
    const state = { params: undefined as BottomButtonParams | undefined }
    return {
      state,
      setParams: (p: BottomButtonParams) => void (state.params = { ...state.params, ...p }),
      onClick:
        (_handler: () => void): (() => void) =>
        () =>
          undefined,
    }
  }
  const main = button()
  const secondary = button()
  return {
    main: main.state,
    secondary: secondary.state,
    setTheme: (next: Record<string, string>) => {
      current = next
      listeners.forEach((l) => l(next))
    },
    telegram: {
      mainButton: main,
      secondaryButton: secondary,
      theme: { current: () => current, onChange: (l: (t: Record<string, string>) => void) => (listeners.add(l), () => void listeners.delete(l)) },
    },
  }
}

describe("bottom buttons", () => {
  it("follow Telegram's theme after it changes (bug: they kept the colours of the theme they were shown in)", () => {
    const light = { button_color: "#2481cc", button_text_color: "#ffffff", secondary_bg_color: "#efeff4" }
    const dark = { button_color: "#5288c1", button_text_color: "#ffffff", secondary_bg_color: "#232e3c" }
    const t = fakeTelegram(light)
    const kernel = { telegram: t.telegram } as unknown as Kernel
    const view = render(
      <KernelProvider kernel={kernel}>
        <MainButton text="Confirm" onClick={() => undefined} />
        <SecondaryButton text="Decline" onClick={() => undefined} />
      </KernelProvider>,
    )
    expect(t.main.params).toMatchObject({ text: "Confirm", color: "#2481cc" })
    expect(t.secondary.params).toMatchObject({ text: "Decline", color: "#efeff4", textColor: "#2481cc" })
    act(() => t.setTheme(dark))
    expect(t.main.params).toMatchObject({ color: "#5288c1" })
    expect(t.secondary.params).toMatchObject({ color: "#232e3c", textColor: "#5288c1" })
    view.unmount()
  })

  it("a press right after a re-render calls that render's handler (bug: a corrected word was checked as the wrong one it replaced)", async () => {
    const t = fakeTelegram({})
    let registered: (() => void) | undefined
    t.telegram.mainButton.onClick = (handler: () => void) => {
      registered = handler
      return () => undefined
    }
    const kernel = { telegram: t.telegram } as unknown as Kernel
    const pressed: Array<string> = []
    let setWord!: (word: string) => void
    function Screen() {
      const [word, set] = useState("wrong")
      setWord = set
      return <MainButton text="Continue" onClick={() => pressed.push(word)} />
    }
    render(
      <KernelProvider kernel={kernel}>
        <Screen />
      </KernelProvider>,
    )
    // Outside act: the re-render comes on a microtask, passive effects only a frame later.
    setWord("right")
    await Promise.resolve()
    await Promise.resolve()
    registered!()
    expect(pressed).toEqual(["right"])
  })
})
