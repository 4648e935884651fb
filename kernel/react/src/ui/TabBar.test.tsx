import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it, vi } from "vitest"
import { TabBar, type TabBarItem } from "./TabBar.tsx"
import { TAB_BAR_HEIGHT_APPLE, TAB_BAR_HEIGHT_MATERIAL, TAB_BAR_STRIP_HEIGHT, isCompactStrip, tabBarHeight } from "./tabBarLayout.ts"

afterEach(cleanup)

const strip = ({ compact }: { compact: boolean }) => <span>{compact ? "compact" : "full"}</span>

const items: TabBarItem[] = [
  { id: "wallet", label: "Wallet", icon: <svg /> },
  { id: "trade", label: "Trade", icon: <svg /> },
  { id: "p2p", label: "P2P", icon: <svg />, badge: 3, badgeLabel: "3 active orders" },
  { id: "history", label: "History", icon: <svg />, badge: true },
]

describe("tab bar layout", () => {
  it("has the spec heights", () => {
    expect(TAB_BAR_HEIGHT_APPLE).toBe(49)
    expect(TAB_BAR_HEIGHT_MATERIAL).toBe(64)
    expect(TAB_BAR_STRIP_HEIGHT).toBe(44)
    expect(tabBarHeight({ platformStyle: "apple" })).toBe(49)
    expect(tabBarHeight({ platformStyle: "material" })).toBe(64)
    expect(tabBarHeight({ platformStyle: "apple", withStrip: true })).toBe(93)
    expect(tabBarHeight({ platformStyle: "material", withStrip: true })).toBe(108)
  })
  it("makes the strip compact under 375 px (apple) and 360 px (material)", () => {
    expect(isCompactStrip("apple", 374)).toBe(true)
    expect(isCompactStrip("apple", 375)).toBe(false)
    expect(isCompactStrip("material", 359)).toBe(true)
    expect(isCompactStrip("material", 360)).toBe(false)
    expect(isCompactStrip("material", 370)).toBe(false)
  })
})

describe("TabBar", () => {
  it("is a navigation landmark with the active tab marked as the current page", () => {
    render(<TabBar aria-label="Sections" items={items} activeId="trade" onSelect={() => {}} />)
    expect(screen.getByRole("navigation", { name: "Sections" })).toBeTruthy()
    expect(screen.getByRole("button", { name: "Trade" }).getAttribute("aria-current")).toBe("page")
    expect(screen.getByRole("button", { name: "Wallet" }).getAttribute("aria-current")).toBeNull()
  })

  it("selects an inactive tab and reports a press on the active one separately", () => {
    const onSelect = vi.fn()
    const onActiveTabPress = vi.fn()
    render(<TabBar items={items} activeId="wallet" onSelect={onSelect} onActiveTabPress={onActiveTabPress} />)
    fireEvent.click(screen.getByRole("button", { name: "Trade" }))
    expect(onSelect).toHaveBeenCalledWith("trade")
    expect(onActiveTabPress).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole("button", { name: "Wallet" }))
    expect(onActiveTabPress).toHaveBeenCalledWith("wallet")
    expect(onSelect).toHaveBeenCalledTimes(1)
  })

  it("shows badges, with a spoken label", () => {
    render(<TabBar items={items} activeId="wallet" onSelect={() => {}} />)
    const badges = screen.getAllByTestId("tab-badge")
    expect(badges.map((b) => b.textContent)).toEqual(["3", ""])
    expect(screen.getByRole("button", { name: /^P2P\s*,\s*3 active orders$/ })).toBeTruthy()
  })

  it("sizes the bar by platform style and strip, and publishes the height on <html>", () => {
    const { rerender } = render(<TabBar items={items} activeId="wallet" onSelect={() => {}} platformStyle="apple" />)
    const nav = screen.getByRole("navigation")
    expect(nav.style.height).toContain("49px")
    expect(document.documentElement.style.getPropertyValue("--wk-tab-bar-height")).toBe("49px")

    rerender(<TabBar items={items} activeId="wallet" onSelect={() => {}} platformStyle="material" strip={<span>2 active orders</span>} />)
    expect(nav.style.height).toContain("108px")
    expect(screen.getByText("2 active orders")).toBeTruthy()
    expect(screen.getByTestId("tab-bar-strip").style.height).toBe("44px")
    expect(document.documentElement.style.getPropertyValue("--wk-tab-bar-height")).toBe("108px")

    rerender(<TabBar items={items} activeId="wallet" onSelect={() => {}} hidden />)
    expect(document.documentElement.style.getPropertyValue("--wk-tab-bar-height")).toBe("0px")
  })

  it("passes the compact flag to the strip by viewport width", () => {
    const { rerender } = render(<TabBar items={items} activeId="wallet" onSelect={() => {}} platformStyle="apple" strip={strip} viewportWidth={370} />)
    expect(screen.getByText("compact")).toBeTruthy()
    expect(screen.getByTestId("tab-bar-strip").dataset.compact).toBeDefined()
    rerender(<TabBar items={items} activeId="wallet" onSelect={() => {}} platformStyle="material" strip={strip} viewportWidth={370} />)
    expect(screen.getByText("full")).toBeTruthy()
    expect(screen.getByTestId("tab-bar-strip").dataset.compact).toBeUndefined()
  })

  it("follows window resizes when no width is given", () => {
    Object.defineProperty(window, "innerWidth", { configurable: true, value: 414 })
    render(<TabBar items={items} activeId="wallet" onSelect={() => {}} strip={strip} />)
    expect(screen.getByText("full")).toBeTruthy()
    Object.defineProperty(window, "innerWidth", { configurable: true, value: 320 })
    act(() => void window.dispatchEvent(new Event("resize")))
    expect(screen.getByText("compact")).toBeTruthy()
  })

  it("shows a tooltip over one tab, describing it; tapping the bubble or the tab dismisses it", () => {
    const onDismiss = vi.fn()
    const onSelect = vi.fn()
    const { rerender } = render(
      <TabBar items={items} activeId="wallet" onSelect={onSelect} tooltip={{ tabId: "trade", content: "Trade stocks here", onDismiss }} />,
    )
    const bubble = screen.getByText("Trade stocks here")
    const trade = screen.getByRole("button", { name: "Trade" })
    expect(trade.getAttribute("aria-describedby")).toBe(bubble.id)
    expect(bubble.dataset.align).toBe("center")
    fireEvent.click(bubble)
    expect(onDismiss).toHaveBeenCalledTimes(1)
    fireEvent.click(trade)
    expect(onDismiss).toHaveBeenCalledTimes(2)
    expect(onSelect).toHaveBeenCalledWith("trade")
    rerender(<TabBar items={items} activeId="wallet" onSelect={onSelect} hidden tooltip={{ tabId: "trade", content: "Trade stocks here", onDismiss }} />)
    expect(screen.queryByText("Trade stocks here")).toBeNull()
  })

  it("when hidden it is out of the accessibility tree and not focusable", () => {
    render(<TabBar items={items} activeId="wallet" onSelect={() => {}} hidden />)
    const nav = document.querySelector("nav")!
    expect(nav.getAttribute("aria-hidden")).toBe("true")
    expect(nav.hasAttribute("inert")).toBe(true)
    expect(screen.queryByRole("button", { name: "Wallet" })).toBeNull()
  })
})
