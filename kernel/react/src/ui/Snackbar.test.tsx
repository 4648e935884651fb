import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useEffect } from "react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { SnackbarProvider, useSnackbar, type SnackbarApi, type SnackbarProviderProps } from "./Snackbar.tsx"
import {
  SNACKBAR_AUTO_HIDE_MS,
  SNACKBAR_HIDE_MS,
  SNACKBAR_SWIPE_ACTIVATION_PX,
  SNACKBAR_SWIPE_DISMISS_RATIO,
  SNACKBAR_SWIPE_RETURN_MS,
  SNACKBAR_SWIPE_VELOCITY,
  shouldDismissSwipe,
} from "./snackbarConstants.ts"

let api: SnackbarApi
function Capture() {
  const a = useSnackbar()
  useEffect(() => {
    api = a
  })
  return null
}

function setup(props: Omit<SnackbarProviderProps, "children"> = {}) {
  render(
    <SnackbarProvider {...props}>
      <Capture />
    </SnackbarProvider>,
  )
}

const bar = (text: string) => screen.queryByText(text)?.closest<HTMLElement>("[data-state]") ?? null
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms))

const WIDTH = 300
beforeEach(() => {
  vi.useFakeTimers()
  vi.spyOn(HTMLElement.prototype, "offsetWidth", "get").mockReturnValue(WIDTH)
  vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockReturnValue(60)
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

/** Presses at x=100, moves through `xs` with `stepMs` between moves, releases at the last point. */
function swipe(el: HTMLElement, xs: number[], stepMs: number, { release = true } = {}) {
  fireEvent.pointerDown(el, { pointerId: 1, clientX: 100, clientY: 100, button: 0, pointerType: "touch" })
  for (const x of xs) {
    advance(stepMs)
    fireEvent.pointerMove(el, { pointerId: 1, clientX: x, clientY: 100, pointerType: "touch" })
  }
  if (release) fireEvent.pointerUp(el, { pointerId: 1, clientX: xs[xs.length - 1] ?? 100, clientY: 100, pointerType: "touch" })
}

describe("spec constants", () => {
  it("match the spec", () => {
    expect(SNACKBAR_AUTO_HIDE_MS).toBe(6000)
    expect(SNACKBAR_HIDE_MS).toBe(300)
    expect(SNACKBAR_SWIPE_ACTIVATION_PX).toBe(10)
    expect(SNACKBAR_SWIPE_DISMISS_RATIO).toBeCloseTo(1 / 3)
    expect(SNACKBAR_SWIPE_VELOCITY).toBe(0.5)
    expect(SNACKBAR_SWIPE_RETURN_MS).toBe(300)
  })
})

describe("shouldDismissSwipe", () => {
  it("dismisses past one third of the size, not at it", () => {
    expect(shouldDismissSwipe({ offset: 100, velocity: 0, size: 300 })).toBe(false)
    expect(shouldDismissSwipe({ offset: 101, velocity: 0, size: 300 })).toBe(true)
    expect(shouldDismissSwipe({ offset: -101, velocity: 0, size: 300 })).toBe(true)
  })
  it("dismisses on a fling faster than 0.5 px/ms in the drag direction only", () => {
    expect(shouldDismissSwipe({ offset: 20, velocity: 0.5, size: 300 })).toBe(false)
    expect(shouldDismissSwipe({ offset: 20, velocity: 0.51, size: 300 })).toBe(true)
    expect(shouldDismissSwipe({ offset: -20, velocity: -0.9, size: 300 })).toBe(true)
    expect(shouldDismissSwipe({ offset: 20, velocity: -0.9, size: 300 })).toBe(false)
    expect(shouldDismissSwipe({ offset: 0, velocity: 2, size: 300 })).toBe(false)
  })
})

describe("SnackbarProvider", () => {
  it("announces through a polite status region", () => {
    setup()
    act(() => void api.show({ text: "Copied" }))
    const region = screen.getByRole("status")
    expect(region.getAttribute("aria-live")).toBe("polite")
    expect(region.textContent).toContain("Copied")
  })

  it("auto-hides after 6000 ms, stays hiding 300 ms, then is gone", () => {
    const onHidden = vi.fn()
    setup()
    act(() => void api.show({ text: "Saved", description: "All good", onHidden }))
    expect(bar("Saved")?.dataset.state).toBe("shown")
    expect(screen.getByText("All good")).toBeTruthy()
    advance(SNACKBAR_AUTO_HIDE_MS - 1)
    expect(bar("Saved")?.dataset.state).toBe("shown")
    advance(1)
    expect(bar("Saved")?.dataset.state).toBe("hiding")
    advance(SNACKBAR_HIDE_MS - 1)
    expect(bar("Saved")).not.toBeNull()
    expect(onHidden).not.toHaveBeenCalled()
    advance(1)
    expect(bar("Saved")).toBeNull()
    expect(onHidden).toHaveBeenCalledTimes(1)
  })

  it("respects a custom duration and Infinity", () => {
    setup({ maxVisible: 2 })
    act(() => {
      api.show({ text: "Short", duration: 1000 })
      api.show({ text: "Sticky", duration: Infinity })
    })
    advance(1000)
    expect(bar("Short")?.dataset.state).toBe("hiding")
    advance(60_000)
    expect(bar("Sticky")?.dataset.state).toBe("shown")
  })

  it("pauses the timer while dragged and resumes with the time left", () => {
    setup()
    act(() => void api.show({ text: "Drag me" }))
    advance(2000) // 4000 ms left
    const el = bar("Drag me")!
    swipe(el, [120, 140], 50, { release: false }) // dragged 40 px, 100 ms
    expect(el.dataset.dragging).toBeDefined()
    advance(20_000)
    expect(bar("Drag me")?.dataset.state).toBe("shown")
    advance(500) // hold still so the release has no velocity
    fireEvent.pointerUp(el, { pointerId: 1, clientX: 140, clientY: 100, pointerType: "touch" })
    expect(bar("Drag me")?.dataset.state).toBe("shown") // 40 < 100 px: springs back
    advance(4000 - 1 - 100) // the 100 ms of moves happened after the pause began
    expect(bar("Drag me")?.dataset.state).toBe("shown")
    advance(101)
    expect(bar("Drag me")?.dataset.state).toBe("hiding")
  })

  it("a slow drag within one third springs back in 300 ms", () => {
    setup()
    act(() => void api.show({ text: "Back" }))
    const el = bar("Back")!
    swipe(el, [130, 160, 190, 200], 200) // 100 px = exactly one third, slow
    expect(el.dataset.state).toBe("shown")
    expect(el.dataset.returning).toBeDefined()
    expect(el.style.transform).toBe("")
    advance(SNACKBAR_SWIPE_RETURN_MS - 1)
    expect(el.dataset.returning).toBeDefined()
    advance(1)
    expect(el.dataset.returning).toBeUndefined()
    expect(el.dataset.state).toBe("shown")
  })

  it("a slow drag past one third dismisses (through hiding)", () => {
    setup()
    act(() => void api.show({ text: "Away" }))
    const el = bar("Away")!
    swipe(el, [130, 160, 190, 202], 200) // 102 px > 100 px
    expect(el.dataset.state).toBe("hiding")
    expect(el.dataset.swiped).toBeDefined()
    advance(SNACKBAR_HIDE_MS)
    expect(bar("Away")).toBeNull()
  })

  it("a short fast fling dismisses, a short slow one does not", () => {
    setup({ maxVisible: 2 })
    act(() => {
      api.show({ text: "Fast" })
      api.show({ text: "Slow" })
    })
    const fast = bar("Fast")!
    swipe(fast, [85, 65, 45], 20) // 40 px left in 40 ms: -1 px/ms
    expect(fast.dataset.state).toBe("hiding")

    const slow = bar("Slow")!
    swipe(slow, [85, 65, 45], 120) // same distance, 0.17 px/ms
    expect(slow.dataset.state).toBe("shown")
  })

  it("a move under the 10 px activation is not a drag", () => {
    const onClick = vi.fn()
    setup()
    act(() => void api.show({ text: "Tap", onClick }))
    const el = bar("Tap")!
    swipe(el, [100 + SNACKBAR_SWIPE_ACTIVATION_PX - 1], 10)
    expect(el.dataset.dragging).toBeUndefined()
    expect(el.style.transform).toBe("")
    fireEvent.click(screen.getByRole("button", { name: /Tap/ }))
    expect(onClick).toHaveBeenCalledTimes(1)
    expect(el.dataset.state).toBe("shown")
  })

  it("shows the same id once: shakes it, calls onDuplicate and restarts the timer", () => {
    const onDuplicate = vi.fn()
    setup({ onDuplicate })
    act(() => void api.show({ id: "net", text: "No connection" }))
    advance(5000)
    act(() => void api.show({ id: "net", text: "No connection" }))
    expect(screen.getAllByText("No connection")).toHaveLength(1)
    expect(bar("No connection")?.dataset.shake).toBe("a")
    expect(onDuplicate).toHaveBeenCalledTimes(1)
    expect(onDuplicate.mock.calls[0]?.[0]).toMatchObject({ id: "net", text: "No connection" })
    advance(SNACKBAR_AUTO_HIDE_MS - 1)
    expect(bar("No connection")?.dataset.state).toBe("shown")
    act(() => void api.show({ id: "net", text: "No connection" }))
    expect(bar("No connection")?.dataset.shake).toBe("b") // a new value restarts the animation
    expect(onDuplicate).toHaveBeenCalledTimes(2)
  })

  it("re-showing an id while it is hiding brings it back with a full timer", () => {
    setup()
    act(() => void api.show({ id: "copy", text: "Copied" }))
    advance(SNACKBAR_AUTO_HIDE_MS) // hiding now
    act(() => void api.show({ id: "copy", text: "Copied again" }))
    expect(bar("Copied again")?.dataset.state).toBe("shown")
    advance(SNACKBAR_HIDE_MS) // the old removal must not take the new one
    expect(bar("Copied again")?.dataset.state).toBe("shown")
    advance(SNACKBAR_AUTO_HIDE_MS - SNACKBAR_HIDE_MS - 1)
    expect(bar("Copied again")?.dataset.state).toBe("shown")
    advance(1)
    expect(bar("Copied again")?.dataset.state).toBe("hiding")
  })

  it("a different id replaces the current one (one visible by default)", () => {
    setup()
    act(() => void api.show({ text: "First" }))
    act(() => void api.show({ text: "Second" }))
    expect(bar("First")?.dataset.state).toBe("hiding")
    expect(bar("Second")?.dataset.state).toBe("shown")
    advance(SNACKBAR_HIDE_MS)
    expect(bar("First")).toBeNull()
  })

  it("dismissOnNavigation keeps only persistAcrossNavigation snackbars", () => {
    setup({ maxVisible: 3 })
    act(() => {
      api.show({ text: "Stay", persistAcrossNavigation: true })
      api.show({ text: "Go" })
    })
    act(() => api.dismissOnNavigation())
    expect(bar("Go")?.dataset.state).toBe("hiding")
    expect(bar("Stay")?.dataset.state).toBe("shown")
    advance(SNACKBAR_HIDE_MS)
    expect(bar("Go")).toBeNull()
    expect(bar("Stay")).not.toBeNull()
  })

  it("the action runs and dismisses", () => {
    const undo = vi.fn()
    setup()
    act(() => void api.show({ text: "Deleted", action: { label: "Undo", onClick: undo } }))
    fireEvent.click(screen.getByRole("button", { name: "Undo" }))
    expect(undo).toHaveBeenCalledTimes(1)
    expect(bar("Deleted")?.dataset.state).toBe("hiding")
  })

  it("pauses while focus is inside (keyboard users can reach the action)", () => {
    setup()
    act(() => void api.show({ text: "Focus", action: { label: "Open", onClick: () => {} } }))
    act(() => screen.getByRole("button", { name: "Open" }).focus())
    advance(SNACKBAR_AUTO_HIDE_MS * 2)
    expect(bar("Focus")?.dataset.state).toBe("shown")
    act(() => screen.getByRole("button", { name: "Open" }).blur())
    advance(SNACKBAR_AUTO_HIDE_MS)
    expect(bar("Focus")?.dataset.state).toBe("hiding")
  })

  it("useSnackbar outside the provider fails loudly", () => {
    vi.spyOn(console, "error").mockImplementation(() => {})
    expect(() => render(<Capture />)).toThrow(/SnackbarProvider/)
  })
})
