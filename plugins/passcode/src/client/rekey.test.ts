import { describe, expect, it } from "vitest"
import { changeWithHooks, resetLosesSealed, runBeforePasscodeChange, sealedUnderPasscode } from "./rekey.ts"

describe("passcode change with beforePasscodeChange hooks (decision 0530)", () => {
  it("the change flow runs hooks before the server call, with the current and the new passcode", async () => {
    const order: Array<string> = []
    const hooks = [
      {
        pluginId: "ton-space",
        load: async () => ({
          default: async (input: { current: string; next: string }, host: string) => void order.push(`hook ${input.current}>${input.next} ${host}`),
        }),
      },
    ]
    const result = await changeWithHooks({ hooks, host: "kernel", current: "1111", next: "2580", update: async () => (order.push("server"), "updated") })
    expect(result).toBe("updated")
    expect(order).toEqual(["hook 1111>2580 kernel", "server"])
  })

  it("the change flow goes on when a hook fails, and warns without the passcodes", async () => {
    const order: Array<string> = []
    const warnings: Array<string> = []
    const hooks = [
      { pluginId: "broken", load: async () => ({ default: async () => Promise.reject(new Error("vault 1111 2580")) }) },
      { pluginId: "later", load: async () => ({ default: async () => void order.push("later hook") }) },
    ]
    const result = await changeWithHooks({
      hooks,
      host: undefined,
      current: "1111",
      next: "2580",
      update: async () => (order.push("server"), "updated"),
      warn: (message, fields) => void warnings.push(`${message} ${JSON.stringify(fields)}`),
    })
    expect(result).toBe("updated")
    expect(order).toEqual(["later hook", "server"])
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("broken")
    expect(warnings.join()).not.toMatch(/1111|2580/)
  })

  it("a retried save (the server failed) does not run the hooks twice for the same new passcode", async () => {
    let hookRuns = 0
    let serverCalls = 0
    const hooks = [{ pluginId: "p", load: async () => ({ default: async () => void hookRuns++ }) }]
    const ran = new Set<string>()
    const attempt = (next: string) => changeWithHooks({ hooks, host: 0, current: "1111", next, ran, update: async () => ++serverCalls })
    await attempt("2580")
    await attempt("2580")
    await attempt("3690")
    expect(serverCalls).toBe(3)
    expect(hookRuns).toBe(2)
  })

  it("resetLosesSealed: asks the hooks, false without any", async () => {
    expect(await resetLosesSealed([], "k")).toBe(false)
    const hook = (answer: boolean) => ({ pluginId: "p", load: async () => ({ default: async () => undefined, sealedUnderPasscode: async () => answer }) })
    expect(await resetLosesSealed([hook(false)], "k")).toBe(false)
    expect(await resetLosesSealed([hook(false), hook(true)], "k")).toBe(true)
  })
})

describe("runBeforePasscodeChange (decision 0530)", () => {
  const input = { current: "1357", next: "8642" }
  it("runs every hook in order with both passcodes and the host", async () => {
    const calls: Array<unknown> = []
    const hook = (id: string) => ({ pluginId: id, load: async () => ({ default: async (i: typeof input, host: string) => void calls.push([id, i, host]) }) })
    const failed = await runBeforePasscodeChange([hook("a"), hook("b")], input, "host", () => calls.push("warned"))
    expect(failed).toEqual([])
    expect(calls).toEqual([
      ["a", input, "host"],
      ["b", input, "host"],
    ])
  })

  it("goes on when a hook throws or fails to load, and warns with the plugin id and error name only", async () => {
    const warnings: Array<[string, Readonly<Record<string, string>>]> = []
    const ran: Array<string> = []
    const failed = await runBeforePasscodeChange(
      [
        {
          pluginId: "throws",
          load: async () => ({
            default: async () => {
              throw new TypeError(`bad ${input.current} -> ${input.next}`)
            },
          }),
        },
        { pluginId: "unloadable", load: () => Promise.reject(new Error("chunk failed")) },
        { pluginId: "ok", load: async () => ({ default: async () => void ran.push("ok") }) },
      ],
      input,
      undefined,
      (message, fields) => warnings.push([message, fields]),
    )
    expect(failed).toEqual(["throws", "unloadable"])
    expect(ran).toEqual(["ok"])
    expect(warnings.map(([, f]) => f)).toEqual([
      { plugin: "throws", error: "TypeError" },
      { plugin: "unloadable", error: "Error" },
    ])
    expect(JSON.stringify(warnings)).not.toMatch(/1357|8642/)
  })

  it("sealedUnderPasscode: true when any hook says so; hooks without the check or failing count as false", async () => {
    const warned: Array<string> = []
    const warn = (_: string, f: Readonly<Record<string, string>>) => void warned.push(f.plugin!)
    const plain = { pluginId: "plain", load: async () => ({ default: async () => undefined }) }
    const broken = {
      pluginId: "broken",
      load: async () => ({
        default: async () => undefined,
        sealedUnderPasscode: async () => {
          throw new Error("x")
        },
      }),
    }
    const sealed = (answer: boolean) => ({
      pluginId: `sealed-${answer}`,
      load: async () => ({ default: async () => undefined, sealedUnderPasscode: async (host: number) => answer && host === 7 }),
    })
    expect(await sealedUnderPasscode([plain, broken, sealed(false)], 7, warn)).toBe(false)
    expect(await sealedUnderPasscode([plain, sealed(true)], 7, warn)).toBe(true)
    expect(warned).toEqual(["broken"])
  })
})
