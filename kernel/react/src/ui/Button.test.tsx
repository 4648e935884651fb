import { cleanup, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Avatar, initialsOf } from "./Avatar.tsx"
import { Banner } from "./Badge.tsx"
import { Button } from "./Button.tsx"
import { IconButton } from "./IconButton.tsx"
import { Placeholder } from "./Placeholder.tsx"

afterEach(cleanup)

describe("Button", () => {
  it("clicks, and is type=button by default", () => {
    const onClick = vi.fn()
    render(<Button onClick={onClick}>Continue</Button>)
    const b = screen.getByRole("button", { name: "Continue" })
    expect(b.getAttribute("type")).toBe("button")
    fireEvent.click(b)
    expect(onClick).toHaveBeenCalledTimes(1)
  })

  it("loading: busy, spinner labelled, clicks ignored, still focusable", () => {
    const onClick = vi.fn()
    render(
      <Button loading loadingLabel="Sending" onClick={onClick}>
        Send
      </Button>,
    )
    const b = screen.getByRole("button", { name: /Send/ })
    expect(b.getAttribute("aria-busy")).toBe("true")
    expect(b.getAttribute("aria-disabled")).toBe("true")
    expect(screen.getByRole("status", { name: "Sending" })).toBeTruthy()
    fireEvent.click(b)
    expect(onClick).not.toHaveBeenCalled()
    b.focus()
    expect(document.activeElement).toBe(b)
  })

  it("disabled blocks clicks; looks are exposed", () => {
    const onClick = vi.fn()
    render(
      <Button look="destructive" disabled onClick={onClick}>
        Delete
      </Button>,
    )
    const b = screen.getByRole("button", { name: "Delete" })
    fireEvent.click(b)
    expect(onClick).not.toHaveBeenCalled()
    expect(b.dataset.look).toBe("destructive")
  })
})

describe("IconButton", () => {
  it("has its accessible name from aria-label", () => {
    render(
      <IconButton aria-label="Scan QR">
        <svg />
      </IconButton>,
    )
    expect(screen.getByRole("button", { name: "Scan QR" })).toBeTruthy()
  })
})

describe("Placeholder", () => {
  it("error kind is announced, with heading, text and action", () => {
    render(<Placeholder kind="error" title="Something went wrong" description="Try again later" action={<Button>Retry</Button>} />)
    const alert = screen.getByRole("alert")
    expect(alert.textContent).toContain("Try again later")
    expect(screen.getByRole("heading", { name: "Something went wrong" })).toBeTruthy()
    expect(screen.getByRole("button", { name: "Retry" })).toBeTruthy()
  })
})

describe("Avatar", () => {
  it("initials from the first two words, emoji-safe", () => {
    expect(initialsOf("pavel durov")).toBe("PD")
    expect(initialsOf("  Анна  ")).toBe("А")
    expect(initialsOf("😀 smile")).toBe("😀S")
  })
  it("falls back to initials when the image fails; decorative unless alt", () => {
    const { container } = render(<Avatar src="https://x.invalid/a.png" name="Ton Keeper" />)
    const img = container.querySelector("img")!
    expect(container.firstElementChild?.getAttribute("aria-hidden")).toBe("true")
    fireEvent.error(img)
    expect(container.querySelector("img")).toBeNull()
    expect(container.textContent).toBe("TK")
    cleanup()
    render(<Avatar name="Ton Keeper" alt="Ton Keeper" />)
    expect(screen.getByRole("img", { name: "Ton Keeper" })).toBeTruthy()
  })
})

describe("Banner", () => {
  it("warnings are announced; the close button is labelled and calls onClose", () => {
    const onClose = vi.fn()
    render(<Banner tone="warning" title="TON space is unavailable" description="We are fixing it" closeLabel="Hide" onClose={onClose} />)
    expect(screen.getByRole("alert").textContent).toContain("TON space is unavailable")
    fireEvent.click(screen.getByRole("button", { name: "Hide" }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })
  it("info banners are not alerts and have no close button without a label", () => {
    render(<Banner title="Verify your identity" onClose={() => {}} />)
    expect(screen.queryByRole("alert")).toBeNull()
    expect(screen.queryByRole("button")).toBeNull()
  })
})
