import { describe, expect, it } from "vitest"
import { changeOf, parseArgs } from "./cli.ts"

describe("npm run operator: commands become the /ops forms", () => {
  it("flags, banners and buckets, for all or one user", () => {
    expect(changeOf(parseArgs(["flags", "set", "dev_tools", "on"]))).toEqual({ path: "/ops/flags", fields: { key: "dev_tools", value: "on" } })
    expect(changeOf(parseArgs(["banners", "set", "is_ton_space_enabled", "off", "--user", "42"]))).toEqual({
      path: "/ops/flags",
      fields: { key: "is_ton_space_enabled", value: "off", user: "42" },
    })
    expect(changeOf(parseArgs(["buckets", "set", "wallet-action-buttons", "b"]))).toEqual({
      path: "/ops/buckets",
      fields: { name: "wallet-action-buttons", bucket: "b" },
    })
    expect(changeOf(parseArgs(["list"]))).toBeUndefined()
  })

  it("refuses what the forms would refuse", () => {
    expect(() => changeOf(parseArgs(["banners", "set", "dev_tools", "off"]))).toThrow(/banners are is_ton_space_enabled, is_p2p_enabled/)
    expect(() => changeOf(parseArgs(["flags", "set", "dev_tools", "maybe"]))).toThrow(/on, off or clear/)
    expect(() => changeOf(parseArgs(["buckets", "set", "x", "d"]))).toThrow(/a, b, c or clear/)
    expect(() => changeOf(parseArgs(["flags", "set", "dev_tools", "on", "--user", "me"]))).toThrow(/user id/)
    expect(() => parseArgs(["list", "--user"])).toThrow(/needs a value/)
  })
})
