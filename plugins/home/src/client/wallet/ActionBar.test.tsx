import { describe, expect, it } from "vitest"
import { actionLayout } from "./ActionBar.tsx"

describe("main's action buttons layout (new_action_buttons, wallet-action-buttons)", () => {
  it("round by default, compact in bucket b, classic with the flag off whatever the bucket", () => {
    expect(actionLayout(true, "a")).toBe("round")
    expect(actionLayout(true, "c")).toBe("round")
    expect(actionLayout(true, "b")).toBe("compact")
    expect(actionLayout(false, "a")).toBe("classic")
    expect(actionLayout(false, "b")).toBe("classic")
  })
})
