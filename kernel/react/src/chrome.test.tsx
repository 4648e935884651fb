import { act, render } from "@testing-library/react"
import { describe, expect, it } from "vitest"
import { holdTabBarHidden, useHideTabBar, useTabBarHiddenByScreens } from "./chrome.ts"

function Probe() {
  return <span data-testid="probe">{useTabBarHiddenByScreens() ? "hidden" : "shown"}</span>
}
function Form({ hide }: { hide: boolean }) {
  useHideTabBar(hide)
  return null
}

describe("tab bar hide requests", () => {
  it("hides while any screen or main button asks, and shows again when all released", () => {
    const view = render(
      <>
        <Probe />
        <Form hide={false} />
      </>,
    )
    expect(view.getByTestId("probe").textContent).toBe("shown")
    view.rerender(
      <>
        <Probe />
        <Form hide />
      </>,
    )
    expect(view.getByTestId("probe").textContent).toBe("hidden")
    let release = () => {}
    act(() => {
      release = holdTabBarHidden("mainButton")
    })
    view.rerender(
      <>
        <Probe />
        <Form hide={false} />
      </>,
    )
    expect(view.getByTestId("probe").textContent).toBe("hidden")
    act(() => {
      release()
      release()
    })
    expect(view.getByTestId("probe").textContent).toBe("shown")
    view.unmount()
  })
})
