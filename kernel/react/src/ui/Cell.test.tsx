import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Cell } from "./Cell.tsx"
import { List, Section } from "./List.tsx"
import { SKELETON_LIST_DEFAULT_ROWS, SkeletonList } from "./SkeletonList.tsx"

afterEach(cleanup)

describe("Cell", () => {
  it("with onClick is a native button: in the tab order, activated by click/Enter/Space", () => {
    const onClick = vi.fn()
    render(<Cell title="Toncoin" subtitle="TON" after="12.5" afterSubtitle="$40" chevron onClick={onClick} />)
    // Enter/Space activation of a <button type="button"> is native browser behaviour; what we
    // guarantee is that the cell is that element, focusable and enabled.
    const button = screen.getByRole("button", { name: /Toncoin/ })
    expect(button.tagName).toBe("BUTTON")
    expect(button.getAttribute("type")).toBe("button")
    expect(button.tabIndex).toBe(0)
    button.focus()
    expect(document.activeElement).toBe(button)
    fireEvent.click(button)
    expect(onClick).toHaveBeenCalledTimes(1)
    expect(button.textContent).toContain("12.5")
    expect(button.textContent).toContain("$40")
    expect(button.querySelector("svg[aria-hidden='true']")).not.toBeNull() // chevron
  })

  it("disabled: not clickable and announced", () => {
    const onClick = vi.fn()
    render(<Cell title="Send" onClick={onClick} disabled />)
    const button = screen.getByRole("button", { name: "Send" }) as HTMLButtonElement
    expect(button.disabled).toBe(true)
    fireEvent.click(button)
    expect(onClick).not.toHaveBeenCalled()
  })

  it("without onClick is static content, not a control", () => {
    render(<Cell title="Network" description="Fees are paid in TON" disabled />)
    expect(screen.queryByRole("button")).toBeNull()
    expect(screen.getByText("Network").closest("[aria-disabled]")).not.toBeNull()
    expect(screen.getByText("Fees are paid in TON")).toBeTruthy()
  })

  it("multiline lets the texts wrap", () => {
    render(<Cell title="A long title" multiline />)
    expect(screen.getByText("A long title").parentElement?.parentElement?.parentElement?.className).toMatch(/multiline/)
  })
})

describe("Section", () => {
  it("a string header labels the section, the footer is rendered", () => {
    render(
      <List>
        <Section header="Assets" footer="Prices are indicative">
          <Cell title="TON" />
        </Section>
      </List>,
    )
    expect(screen.getByRole("region", { name: "Assets" })).toBeTruthy()
    expect(screen.getByRole("heading", { name: "Assets" })).toBeTruthy()
    expect(screen.getByText("Prices are indicative")).toBeTruthy()
  })
})

describe("SkeletonList", () => {
  it("shows 3 rows by default (spec) as one busy status", () => {
    expect(SKELETON_LIST_DEFAULT_ROWS).toBe(3)
    render(<SkeletonList label="Loading assets" />)
    const status = screen.getByRole("status", { name: "Loading assets" })
    expect(status.getAttribute("aria-busy")).toBe("true")
    expect(status.querySelectorAll("[data-skeleton]")).toHaveLength(3)
    expect(status.querySelectorAll("[data-shape='circle']")).toHaveLength(3)
  })
  it("takes a row count", () => {
    render(<SkeletonList rows={5} before={false} />)
    const status = screen.getByRole("status")
    expect(status.querySelectorAll("[data-skeleton]")).toHaveLength(5)
    expect(status.querySelectorAll("[data-shape='circle']")).toHaveLength(0)
  })
})
