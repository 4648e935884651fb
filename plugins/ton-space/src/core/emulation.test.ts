import { describe, expect, it } from "vitest"
import type { Action, Trace } from "@wallet/kernel/chain"
import { emulationErrorReason, emulationReject, emulationRejected } from "./emulation.ts"

const action = (type: string, status: "ok" | "failed" = "ok"): Action => ({
  type,
  status,
  simple_preview: { name: type, description: "", accounts: [] },
  base_transactions: [],
})
const tx = (success: boolean, children: Trace[] = []): Trace => ({
  transaction: { hash: "h", lt: 1, success, account: { address: "0:1", is_scam: false, is_wallet: true } },
  interfaces: [],
  children,
})
const of = (actions: Action[], trace = tx(true)) => ({
  event: {
    event_id: "e",
    account: { address: "0:1", is_scam: false, is_wallet: true },
    timestamp: 1,
    actions,
    is_scam: false,
    lt: 1,
    in_progress: false,
    extra: 0n,
  },
  trace,
})

describe("emulation rejects (spec 2 §5)", () => {
  it("accepts a plain transfer, with the sender's deploy beside it", () => {
    expect(emulationReject(of([action("TonTransfer")]), { expectedActions: 1, checkTrace: true })).toBeNull()
    expect(emulationReject(of([action("ContractDeploy"), action("TonTransfer")]), { expectedActions: 1 })).toBeNull()
  })
  it("rejects zero actions and a lone contract deploy", () => {
    expect(emulationReject(of([]))).toBe("no actions")
    expect(emulationReject(of([action("ContractDeploy")]))).toBe('only "ContractDeploy" presented')
  })
  it("rejects a failed action unless allowed", () => {
    expect(emulationReject(of([action("JettonTransfer", "failed")]))).toBe("failed")
    expect(emulationReject(of([action("JettonTransfer", "failed")]), { allowFailed: true })).toBeNull()
  })
  it("rejects an invalid trace only when checked", () => {
    const broken = tx(true, [tx(false)])
    expect(emulationReject(of([action("TonTransfer")], broken), { checkTrace: true })).toBe("invalid trace")
    expect(emulationReject(of([action("TonTransfer")], broken))).toBeNull()
  })
  it("rejects an action count mismatch", () => {
    expect(emulationReject(of([action("TonTransfer"), action("TonTransfer")]), { expectedActions: 1 })).toBe("unexpected actions count")
  })
  it("rejects Unknown actions unless allowed", () => {
    expect(emulationReject(of([action("TonTransfer"), action("Unknown")]))).toBe('unexpected "Unknown" action')
    expect(emulationReject(of([action("TonTransfer"), action("Unknown")]), { allowUnknown: true })).toBeNull()
  })
  it("maps exit codes 36 and 136 to expired and builds the spec's message", () => {
    expect(emulationErrorReason({ code: 136 })).toBe("expired")
    expect(emulationErrorReason({ code: 36 })).toBe("expired")
    expect(emulationErrorReason({ code: 135 })).toBe("unknown error")
    expect(emulationRejected("no actions").message).toBe("Unable to emulate boc: no actions")
  })
})
