import { act, fireEvent, render } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { SHAKE_MS } from "./rules.ts"
import type { PasscodeSession } from "./runtime.ts"
import { PasscodeEntry } from "./ui.tsx"

const session = (platform: string) => {
  const haptics: unknown[] = []
  const value = {
    kernel: { telegram: { launchParams: { platform }, haptic: (h: unknown) => haptics.push(h) } },
    t: (key: string, options?: Record<string, unknown>) => (options ? `${key}:${JSON.stringify(options)}` : key),
  } as unknown as PasscodeSession
  return { value, haptics }
}
const typed = (view: ReturnType<typeof render>) => view.getByRole("img").getAttribute("aria-label")

afterEach(() => vi.useRealTimers())

describe("PasscodeEntry", () => {
  it("takes a hardware keyboard on desktop, completes once at the length and ignores input while checking", async () => {
    const s = session("tdesktop")
    let finish: (ok: boolean) => void = () => undefined
    const completed: string[] = []
    const view = render(<PasscodeEntry session={s.value} title="Enter" length={4} onComplete={(v) => (completed.push(v), new Promise((r) => (finish = r)))} />)
    expect(view.queryByRole("group", { name: "entry.pad" })).toBeNull()
    for (const key of ["1", "x", "2", "3", "Backspace", "3", "4"]) fireEvent.keyDown(document, { key })
    expect(completed).toEqual(["1234"])
    fireEvent.keyDown(document, { key: "5" })
    fireEvent.keyDown(document, { key: "Backspace" })
    expect(typed(view)).toContain('"count":4')
    vi.useFakeTimers()
    await act(async () => finish(false))
    expect(s.haptics).toContainEqual({ type: "notification", kind: "error" })
    act(() => void vi.advanceTimersByTime(SHAKE_MS))
    expect(typed(view)).toContain('"count":0')
    fireEvent.keyDown(document, { key: "7" })
    expect(typed(view)).toContain('"count":1')
    view.unmount()
  })

  it("shows the number pad on touch platforms", () => {
    const completed: string[] = []
    const view = render(<PasscodeEntry session={session("ios").value} title="Enter" length={4} onComplete={async (v) => (completed.push(v), true)} />)
    const pad = view.getByRole("group", { name: "entry.pad" })
    for (const d of "2468") fireEvent.click(pad.querySelector(`button:nth-child(${d === "0" ? 11 : Number(d)})`)!)
    expect(completed).toEqual(["2468"])
    view.unmount()
  })
})
