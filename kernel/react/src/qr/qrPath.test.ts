import { describe, expect, it } from "vitest"
import { encode } from "uqr"
import { qrPath } from "./qrPath.ts"

describe("qrPath", () => {
  it("merges dark runs of a row into one rectangle each", () => {
    expect(
      qrPath([
        [true, true, false, true],
        [false, false, false, false],
        [false, true, true, true],
      ]),
    ).toBe("M0 0h2v1h-2zM3 0h1v1h-1zM1 2h3v1h-3z")
  })

  it("covers exactly the dark modules of an encoded address", () => {
    const qr = encode("ton://transfer/UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG", { ecc: "M", border: 0 })
    const path = qrPath(qr.data)
    const area = [...path.matchAll(/h(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0)
    expect(area).toBe(qr.data.flat().filter(Boolean).length)
    // The top-left finder pattern starts with a run of 7 dark modules.
    expect(path.startsWith("M0 0h7v1h-7z")).toBe(true)
  })
})
