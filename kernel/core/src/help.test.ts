import { describe, expect, it } from "vitest"
import { HELP_LINKS, helpLink } from "./help.ts"

describe("help links", () => {
  it("opens the Russian article in Russian and the English one otherwise", () => {
    expect(helpLink("passcode", "ru")).toBe(HELP_LINKS.passcode.ru)
    expect(helpLink("passcode", "en")).toBe(HELP_LINKS.passcode.en)
    expect(helpLink("passcode", "hi")).toBe(HELP_LINKS.passcode.en)
  })

  it("falls back to English where an article has no Russian version", () => {
    expect(helpLink("tonConnect", "ru")).toBe(HELP_LINKS.tonConnect.en)
  })
})
