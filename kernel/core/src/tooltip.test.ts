import { describe, expect, it } from "vitest"
import { tabTooltipToShow } from "./tooltip.ts"

const tabs = [{ id: "wallet" }, { id: "trade", tooltip: { textKey: "tradeTip", priority: 1 } }, { id: "earn", tooltip: { textKey: "earnTip", priority: 2 } }]

describe("tabTooltipToShow", () => {
  it("shows the highest-priority tooltip on wallet main: earn before trade", () => {
    expect(tabTooltipToShow({ tabs, pathname: "/main", language: "en", shownThisSession: false })?.id).toBe("earn")
    expect(tabTooltipToShow({ tabs: tabs.slice(0, 2), pathname: "/main", language: "ru", shownThisSession: false })?.id).toBe("trade")
  })

  it("shows nothing off main, once shown this session, or for a right-to-left language", () => {
    expect(tabTooltipToShow({ tabs, pathname: "/settings", language: "en", shownThisSession: false })).toBeUndefined()
    expect(tabTooltipToShow({ tabs, pathname: "/main", language: "en", shownThisSession: true })).toBeUndefined()
    expect(tabTooltipToShow({ tabs, pathname: "/main", language: "ar", shownThisSession: false })).toBeUndefined()
    expect(tabTooltipToShow({ tabs: [{ id: "wallet" }], pathname: "/main", language: "en", shownThisSession: false })).toBeUndefined()
  })
})
