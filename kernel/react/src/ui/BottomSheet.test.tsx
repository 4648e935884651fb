import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useRef, useState } from "react"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { BOTTOM_SHEET_CLOSE_MS, BOTTOM_SHEET_OPEN_MS, BottomSheet, type BottomSheetProps } from "./BottomSheet.tsx"

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms))

function Harness(props: Partial<BottomSheetProps> & { initiallyOpen?: boolean }) {
  const [open, setOpen] = useState(props.initiallyOpen ?? false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open sheet
      </button>
      <BottomSheet title="Choose network" closeLabel="Close" {...props} open={open} onClose={() => setOpen(false)}>
        <button type="button">First</button>
        <input aria-label="Memo" />
        <button type="button">Last</button>
      </BottomSheet>
    </>
  )
}

const dialog = () => screen.queryByRole("dialog")

function WithInput() {
  const ref = useRef<HTMLInputElement>(null)
  return (
    <BottomSheet open onClose={() => {}} aria-label="Memo sheet" initialFocusRef={ref}>
      <button type="button">Before</button>
      <input ref={ref} aria-label="Comment" />
    </BottomSheet>
  )
}

function Nested() {
  const [outer, setOuter] = useState(true)
  const [inner, setInner] = useState(true)
  return (
    <BottomSheet open={outer} onClose={() => setOuter(false)} aria-label="Outer">
      <button type="button">Outer button</button>
      <BottomSheet open={inner} onClose={() => setInner(false)} aria-label="Inner">
        <button type="button">Inner button</button>
      </BottomSheet>
    </BottomSheet>
  )
}

describe("BottomSheet", () => {
  it("uses the spec timings", () => {
    expect(BOTTOM_SHEET_OPEN_MS).toBe(350)
    expect(BOTTOM_SHEET_CLOSE_MS).toBe(200)
  })

  it("is a labelled modal dialog portalled to document.body", () => {
    const { container } = render(<Harness initiallyOpen />)
    const d = dialog()!
    expect(d.getAttribute("aria-modal")).toBe("true")
    expect(container.contains(d)).toBe(false)
    expect(document.body.contains(d)).toBe(true)
    expect(screen.getByRole("dialog", { name: "Choose network" })).toBe(d)
  })

  it("opens in 350 ms and closes in 200 ms, then unmounts and calls onClosed", () => {
    const onClosed = vi.fn()
    render(<Harness onClosed={onClosed} />)
    expect(dialog()).toBeNull()
    fireEvent.click(screen.getByText("Open sheet"))
    expect(dialog()?.dataset.state).toBe("opening")
    advance(BOTTOM_SHEET_OPEN_MS - 1)
    expect(dialog()?.dataset.state).toBe("opening")
    advance(1)
    expect(dialog()?.dataset.state).toBe("open")

    fireEvent.keyDown(dialog()!, { key: "Escape" })
    expect(dialog()?.dataset.state).toBe("closing")
    advance(BOTTOM_SHEET_CLOSE_MS - 1)
    expect(dialog()).not.toBeNull()
    expect(onClosed).not.toHaveBeenCalled()
    advance(1)
    expect(dialog()).toBeNull()
    expect(onClosed).toHaveBeenCalledTimes(1)
  })

  it("moves focus in on open, traps Tab in both directions, and restores focus after closing", () => {
    render(<Harness />)
    const opener = screen.getByText("Open sheet")
    opener.focus()
    fireEvent.click(opener)
    const close = screen.getByRole("button", { name: "Close" })
    const last = screen.getByRole("button", { name: "Last" })
    expect(document.activeElement).toBe(dialog()) // the dialog itself: no ring, no keyboard popping up
    fireEvent.keyDown(dialog()!, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(last)

    last.focus()
    fireEvent.keyDown(last, { key: "Tab" })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(last)

    // focus escaping by other means is pulled back
    act(() => opener.focus())
    expect(document.activeElement).toBe(dialog())

    fireEvent.keyDown(document.activeElement!, { key: "Escape" })
    advance(BOTTOM_SHEET_CLOSE_MS)
    expect(dialog()).toBeNull()
    expect(document.activeElement).toBe(opener)
  })

  it("focuses initialFocusRef when given", () => {
    render(<WithInput />)
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Comment" }))
  })

  it("closes on backdrop click and on the close button, unless told otherwise", () => {
    const { unmount } = render(<Harness initiallyOpen />)
    fireEvent.click(screen.getByTestId("bottom-sheet-backdrop"))
    expect(dialog()?.dataset.state).toBe("closing")
    unmount()

    render(<Harness initiallyOpen closeOnBackdrop={false} closeOnEscape={false} />)
    fireEvent.click(screen.getByTestId("bottom-sheet-backdrop"))
    fireEvent.keyDown(dialog()!, { key: "Escape" })
    expect(dialog()?.dataset.state).not.toBe("closing")
    fireEvent.click(screen.getByRole("button", { name: "Close" }))
    expect(dialog()?.dataset.state).toBe("closing")
  })

  it("with nested sheets only the top one handles Escape", () => {
    render(<Nested />)
    const inner = screen.getByRole("dialog", { name: "Inner" })
    fireEvent.keyDown(screen.getByText("Inner button"), { key: "Escape" })
    expect(inner.dataset.state).toBe("closing")
    expect(screen.getByRole("dialog", { name: "Outer" }).dataset.state).not.toBe("closing")
  })

  it("dragging the header down past 30% of the height closes; a short slow drag springs back", () => {
    vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockReturnValue(400)
    render(<Harness initiallyOpen />)
    advance(BOTTOM_SHEET_OPEN_MS)
    const grip = screen.getByTestId("bottom-sheet-grip")
    const drag = (ys: number[], stepMs: number) => {
      fireEvent.pointerDown(grip, { pointerId: 1, clientY: 100 })
      for (const y of ys) {
        advance(stepMs)
        fireEvent.pointerMove(grip, { pointerId: 1, clientY: y })
      }
      fireEvent.pointerUp(grip, { pointerId: 1, clientY: ys[ys.length - 1] })
    }
    drag([150, 200, 220], 300) // 120 px of 400, slow
    expect(dialog()?.dataset.state).toBe("open")
    expect(dialog()?.style.transform).toBe("")
    drag([150, 200, 250], 300) // 150 px > 120 px
    expect(dialog()?.dataset.state).toBe("closing")
  })

  it("a fast flick down closes", () => {
    vi.spyOn(HTMLElement.prototype, "offsetHeight", "get").mockReturnValue(400)
    render(<Harness initiallyOpen />)
    advance(BOTTOM_SHEET_OPEN_MS)
    const grip = screen.getByTestId("bottom-sheet-grip")
    fireEvent.pointerDown(grip, { pointerId: 1, clientY: 100 })
    for (const y of [115, 135, 155]) {
      advance(20)
      fireEvent.pointerMove(grip, { pointerId: 1, clientY: y })
    }
    fireEvent.pointerUp(grip, { pointerId: 1, clientY: 155 }) // 55 px in 40 ms
    expect(dialog()?.dataset.state).toBe("closing")
  })

  it("under prefers-reduced-motion it opens and closes without waiting", () => {
    vi.spyOn(window, "matchMedia").mockImplementation((query: string) => ({ matches: query.includes("reduce"), media: query }) as unknown as MediaQueryList)
    render(<Harness initiallyOpen />)
    advance(0)
    expect(dialog()?.dataset.state).toBe("open")
    fireEvent.keyDown(dialog()!, { key: "Escape" })
    advance(0)
    expect(dialog()).toBeNull()
  })

  it("locks body scroll while mounted", () => {
    render(<Harness initiallyOpen />)
    expect(document.body.style.overflow).toBe("hidden")
    fireEvent.keyDown(dialog()!, { key: "Escape" })
    advance(BOTTOM_SHEET_CLOSE_MS)
    expect(document.body.style.overflow).toBe("")
  })

  it("re-opening while closing cancels the close", () => {
    render(<Harness />)
    fireEvent.click(screen.getByText("Open sheet"))
    advance(BOTTOM_SHEET_OPEN_MS)
    fireEvent.keyDown(dialog()!, { key: "Escape" })
    advance(BOTTOM_SHEET_CLOSE_MS / 2)
    fireEvent.click(screen.getByText("Open sheet"))
    advance(BOTTOM_SHEET_CLOSE_MS)
    expect(dialog()).not.toBeNull()
    advance(BOTTOM_SHEET_OPEN_MS)
    expect(dialog()?.dataset.state).toBe("open")
  })
})
