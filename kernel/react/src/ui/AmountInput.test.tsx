import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { useState } from "react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { AmountInput, type AmountInputProps } from "./AmountInput.tsx"

afterEach(cleanup)

function Controlled({ spy, ...props }: Partial<AmountInputProps> & { spy?: (v: string) => void }) {
  const [value, setValue] = useState(props.value ?? "")
  return (
    <AmountInput
      aria-label="Amount"
      decimals={2}
      {...props}
      value={value}
      onChange={(v) => {
        spy?.(v)
        setValue(v)
      }}
    />
  )
}

const field = () => screen.getByRole<HTMLInputElement>("textbox", { name: "Amount" })
const type = (text: string) => fireEvent.input(field(), { target: { value: text } })

describe("AmountInput", () => {
  it("is a decimal text field for mobile keyboards", () => {
    render(<Controlled currency="TON" />)
    const input = field()
    expect(input.getAttribute("inputmode")).toBe("decimal")
    expect(input.getAttribute("type")).toBe("text")
    expect(input.getAttribute("autocomplete")).toBe("off")
    expect(screen.getByText("TON").id).toBe(input.getAttribute("aria-describedby"))
  })

  it("accepts ',' and '.', hands out '.' and shows the locale separator", () => {
    const spy = vi.fn()
    render(<Controlled spy={spy} decimalSeparator="," />)
    type("1.5")
    expect(spy).toHaveBeenLastCalledWith("1.5")
    expect(field().value).toBe("1,5")
    type("2,25")
    expect(spy).toHaveBeenLastCalledWith("2.25")
    expect(field().value).toBe("2,25")
  })

  it("refuses a digit beyond the currency's decimals and keeps the value", () => {
    const spy = vi.fn()
    render(<Controlled spy={spy} value="1.23" />)
    type("1.234")
    expect(spy).not.toHaveBeenCalled()
    expect(field().value).toBe("1.23")
  })

  it("with 0 decimals refuses any separator", () => {
    const spy = vi.fn()
    render(<Controlled spy={spy} decimals={0} value="12" />)
    type("12.")
    expect(spy).not.toHaveBeenCalled()
    expect(field().value).toBe("12")
  })

  it("cleans leading zeros and a bare separator", () => {
    render(<Controlled />)
    type("0")
    type("00")
    expect(field().value).toBe("0")
    type("05")
    expect(field().value).toBe("5")
    type(".")
    expect(field().value).toBe("0.")
  })

  it("refuses letters, signs and exponents", () => {
    const spy = vi.fn()
    render(<Controlled spy={spy} value="1" />)
    for (const bad of ["1a", "-1", "1e3", "1.2.3"]) type(bad)
    expect(spy).not.toHaveBeenCalled()
    expect(field().value).toBe("1")
  })

  it("pastes formatted numbers and cuts extra decimals", () => {
    const spy = vi.fn()
    render(<Controlled spy={spy} />)
    fireEvent.paste(field(), { clipboardData: { getData: () => "1,234.567" } })
    expect(spy).toHaveBeenLastCalledWith("1234.56")
    expect(field().value).toBe("1234.56")
  })

  it("marks an invalid amount for assistive technology", () => {
    render(<Controlled invalid />)
    expect(field().getAttribute("aria-invalid")).toBe("true")
  })
})
