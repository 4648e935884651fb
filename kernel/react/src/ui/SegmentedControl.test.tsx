import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { SegmentedControl } from "./SegmentedControl.tsx"
import { Switch } from "./Switch.tsx"

afterEach(cleanup)

function Space({ spy }: { spy: (v: string) => void }) {
  const [value, setValue] = useState<"crypto" | "ton" | "p2p">("crypto")
  return (
    <SegmentedControl
      aria-label="Space"
      value={value}
      onChange={(v) => {
        spy(v)
        setValue(v)
      }}
      items={[
        { value: "crypto", label: "Crypto" },
        { value: "p2p", label: "P2P", disabled: true },
        { value: "ton", label: "TON" },
      ]}
    />
  )
}

describe("SegmentedControl", () => {
  it("is a radio group with one tab stop on the selected item", () => {
    render(<Space spy={() => {}} />)
    expect(screen.getByRole("radiogroup", { name: "Space" })).toBeTruthy()
    const crypto = screen.getByRole("radio", { name: "Crypto" })
    expect(crypto.getAttribute("aria-checked")).toBe("true")
    expect(crypto.tabIndex).toBe(0)
    expect(screen.getByRole("radio", { name: "TON" }).tabIndex).toBe(-1)
  })

  it("arrow keys move and select, skipping disabled items; clicks select", () => {
    const spy = vi.fn()
    render(<Space spy={spy} />)
    const crypto = screen.getByRole("radio", { name: "Crypto" })
    crypto.focus()
    fireEvent.keyDown(crypto, { key: "ArrowRight" })
    const ton = screen.getByRole("radio", { name: "TON" })
    expect(spy).toHaveBeenLastCalledWith("ton")
    expect(document.activeElement).toBe(ton)
    expect(ton.getAttribute("aria-checked")).toBe("true")
    fireEvent.keyDown(ton, { key: "ArrowRight" }) // wraps
    expect(spy).toHaveBeenLastCalledWith("crypto")
    fireEvent.keyDown(crypto, { key: "End" })
    expect(spy).toHaveBeenLastCalledWith("ton")
    fireEvent.click(screen.getByRole("radio", { name: "Crypto" }))
    expect(spy).toHaveBeenLastCalledWith("crypto")
    expect(spy).not.toHaveBeenCalledWith("p2p")
  })
})

describe("Switch", () => {
  it("is a native checkbox with role switch", () => {
    const onChange = vi.fn()
    render(<Switch aria-label="Market trends" checked={false} onChange={onChange} />)
    const sw = screen.getByRole("switch", { name: "Market trends" })
    expect(sw.getAttribute("aria-checked")).toBe("false")
    fireEvent.click(sw)
    expect(onChange).toHaveBeenCalledWith(true)
  })
})
