import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { SearchInput, TextField } from "./TextField.tsx"

afterEach(cleanup)

describe("TextField", () => {
  it("is labelled, describes itself with hint and error, and reports changes", () => {
    const onChange = vi.fn()
    render(<TextField label="Address" value="" onChange={onChange} hint="TON or USDT address" error="Invalid address" />)
    const input = screen.getByRole("textbox", { name: "Address" })
    expect(input.getAttribute("aria-invalid")).toBe("true")
    const described = (input.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent)
    expect(described).toEqual(["TON or USDT address", "Invalid address"])
    expect(screen.getByRole("alert").textContent).toBe("Invalid address")
    fireEvent.input(input, { target: { value: "UQ..." } })
    expect(onChange).toHaveBeenCalledWith("UQ...")
  })

  it("multiline renders a textarea", () => {
    render(<TextField multiline label="Comment" value="hi" onChange={() => {}} />)
    expect(screen.getByRole("textbox", { name: "Comment" }).tagName).toBe("TEXTAREA")
  })
})

describe("SearchInput", () => {
  it("clears with the button and with Escape", () => {
    const onChange = vi.fn()
    const { rerender } = render(<SearchInput aria-label="Search currency" clearLabel="Clear" value="" onChange={onChange} />)
    expect(screen.queryByRole("button", { name: "Clear" })).toBeNull()
    rerender(<SearchInput aria-label="Search currency" clearLabel="Clear" value="eu" onChange={onChange} />)
    fireEvent.click(screen.getByRole("button", { name: "Clear" }))
    expect(onChange).toHaveBeenLastCalledWith("")
    onChange.mockClear()
    fireEvent.keyDown(screen.getByRole("searchbox", { name: "Search currency" }), { key: "Escape" })
    expect(onChange).toHaveBeenCalledWith("")
  })
})
