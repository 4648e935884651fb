import { act, render } from "@testing-library/react"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { composePlugins, defineRegion, definePlugin, type PasscodeShape } from "@wallet/kernel"
import { KernelProvider, type Kernel } from "./context.tsx"
import { createOverlayStore, OverlayHost, passcodeFromComposition, usePasscode, type PasscodeHost } from "./passcode.tsx"

describe("passcode service wiring", () => {
  it("renders overlay layers over the app and removes them when closed", () => {
    const overlays = createOverlayStore()
    const kernel = { overlays } as unknown as Kernel
    const view = render(
      <KernelProvider kernel={kernel}>
        <OverlayHost />
      </KernelProvider>,
    )
    expect(view.queryByRole("dialog")).toBeNull()
    let close = () => {}
    act(() => {
      close = overlays.show(<div role="dialog" aria-label="Passcode" />)
    })
    expect(view.getByRole("dialog", { name: "Passcode" })).toBeTruthy()
    act(() => close())
    expect(view.queryByRole("dialog")).toBeNull()
    view.unmount()
  })

  it("loads the provider plugin's factory with the host on first use; usePasscode without one is unavailable", async () => {
    const seen: PasscodeHost[] = []
    const factory = (host: PasscodeHost): PasscodeShape => {
      seen.push(host)
      return { verify: () => Effect.succeed({ kind: "remembered" }), operationToken: () => Effect.die("unused") }
    }
    const provider = definePlugin({ id: "pc", version: "1.0.0", kernel: "^0.1.0", provides: { passcode: async () => ({ default: factory }) } })
    const composition = composePlugins({ region: defineRegion({ id: "t", plugins: { pc: { enabled: true } } }), installed: [provider] })
    const overlays = createOverlayStore()
    const host = { kernel: {} as Kernel, overlays }
    const shape = passcodeFromComposition(composition, () => host)
    expect(seen).toEqual([])
    expect(await Effect.runPromise(shape.verify({ operation: "send" }))).toEqual({ kind: "remembered" })
    expect(seen).toEqual([host])

    let hooked: PasscodeShape | undefined
    function Probe() {
      hooked = usePasscode()
      return null
    }
    render(
      <KernelProvider kernel={{} as Kernel}>
        <Probe />
      </KernelProvider>,
    ).unmount()
    const error = await Effect.runPromise(Effect.flip(hooked!.verify({ operation: "send" })))
    expect(error._tag).toBe("PasscodeUnavailable")
  })
})
