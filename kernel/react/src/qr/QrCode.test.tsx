import { readdirSync, readFileSync, existsSync } from "node:fs"
import { join } from "node:path"
import { cleanup, render } from "@testing-library/react"
import { encode } from "uqr"
import { afterEach, describe, expect, it } from "vitest"
import QrCodeDefault, { QrCode } from "./index.ts"

afterEach(cleanup)

const address = "ton://transfer/UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG"
const darkArea = (d: string) => [...d.matchAll(/h(\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0)

describe("QrCode (decision 0130)", () => {
  it("draws the text's modules as one path in a square viewBox, named for screen readers", () => {
    const { getByRole } = render(<QrCode text={address} label="QR code of your address" className="big" testId="receive-qr" />)
    const svg = getByRole("img", { name: "QR code of your address" })
    const expected = encode(address, { ecc: "M", border: 0 })
    expect(svg.getAttribute("viewBox")).toBe(`0 0 ${expected.size} ${expected.size}`)
    expect(svg.getAttribute("class")).toBe("big")
    expect(svg.getAttribute("data-testid")).toBe("receive-qr")
    const d = svg.querySelector("path")!.getAttribute("d")!
    expect(darkArea(d)).toBe(expected.data.flat().filter(Boolean).length)
  })

  it("adds the quiet zone it is given around the same code", () => {
    const { getByRole } = render(<QrCode text={address} label="code" border={2} />)
    const plain = encode(address, { ecc: "M", border: 0 })
    expect(getByRole("img").getAttribute("viewBox")).toBe(`0 0 ${plain.size + 4} ${plain.size + 4}`)
    // The finder pattern's first dark run starts two modules in.
    expect(getByRole("img").querySelector("path")!.getAttribute("d")!.startsWith("M2 2h7v1h-7z")).toBe(true)
  })

  it('is the entry\'s default export, for `lazy(() => import("@wallet/kernel-react/qr"))`', () => {
    expect(QrCodeDefault).toBe(QrCode)
  })
})

// Issue 14: two plugins drew QR codes with two encoders (`uqr` in custody, `qr` in ton-space).
describe("one QR library", () => {
  it("no plugin depends on a QR encoder of its own: they use @wallet/kernel-react/qr", () => {
    const plugins = join(import.meta.dirname, "..", "..", "..", "..", "plugins")
    const encoders = ["qr", "uqr", "qrcode", "qrcode-generator", "qr-code-styling"]
    const own = readdirSync(plugins)
      .filter((name) => existsSync(join(plugins, name, "package.json")))
      .flatMap((name) => {
        const pkg = JSON.parse(readFileSync(join(plugins, name, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>
        const deps = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies }
        return encoders.filter((encoder) => encoder in deps).map((encoder) => `${name}: ${encoder}`)
      })
    expect(own).toEqual([])
  })
})
