import { describe, expect, it } from "vitest"
import { HttpError } from "@wallet/kernel"
import { addBiometrySlotWith, rekeyWith, toDeviceKeyError, type BiometrySlotSteps, type PasscodeChange } from "./vault.ts"
import { VaultOpenError, wordsFrom, type ProofOutcome, type WordsFromDeps } from "./secrets.ts"

const failed = (status: number, body: unknown) => new HttpError({ code: "ERR_BAD_RESPONSE", message: `HTTP ${status}`, status, body })

describe("device key errors from the passcode plugin's endpoints", () => {
  it("maps a wrong passcode with the attempts left", () => {
    const error = toDeviceKeyError(failed(403, { _tag: "PasscodeError", code: "passcode_wrong", message: "Wrong passcode", remainingAttempts: 2 }))
    expect(error._tag).toBe("PasscodeRejected")
    expect(error).toMatchObject({ code: "passcode_wrong", remainingAttempts: 2 })
  })
  it("maps exhausted attempts and a bad biometry token", () => {
    expect(toDeviceKeyError(failed(403, { code: "passcode_exceeded_max_attempts", message: "x" }))).toMatchObject({
      _tag: "PasscodeRejected",
      code: "passcode_exceeded_max_attempts",
    })
    expect(toDeviceKeyError(failed(403, { code: "biometry_token_invalid", message: "x" }))).toMatchObject({
      _tag: "PasscodeRejected",
      code: "biometry_token_invalid",
    })
  })
  it("maps an unknown externalId to the vault's 'externalId not found'", () => {
    expect(toDeviceKeyError(failed(404, { _tag: "DeviceKeyNotFound", code: "external_id_not_found", message: "x" }))).toMatchObject({
      _tag: "ExternalIdNotFound",
      message: "externalId not found",
    })
  })
  it("anything else means the device key is unavailable", () => {
    expect(toDeviceKeyError(failed(503, undefined))._tag).toBe("DeviceKeyUnavailable")
    expect(toDeviceKeyError(new HttpError({ code: "ERR_NETWORK", message: "offline" }))._tag).toBe("DeviceKeyUnavailable")
  })
})

const WORDS = Array.from({ length: 24 }, (_, i) => `word${String.fromCharCode(97 + i)}`)

/** A device whose vault has a passcode slot (2468) and, when `slot` is given, a biometry slot for that token. */
const device = (options: { held?: boolean; sealed?: boolean; slot?: string; proofs: ProofOutcome[]; failWith?: { _tag: string; message: string } }) => {
  const log: string[] = []
  let slot = options.slot
  const deps: WordsFromDeps = {
    held: options.held ? WORDS : null,
    sealed: async () => options.sealed ?? true,
    verify: async (need) => {
      log.push(`verify:${need}`)
      return options.proofs.shift() ?? { kind: "cancelled" }
    },
    open: async (credential) => {
      log.push("passcode" in credential ? `open:passcode:${credential.passcode}` : `open:biometry:${credential.token}`)
      if (options.failWith) throw options.failWith
      if ("passcode" in credential) {
        if (credential.passcode !== "2468") throw { _tag: "DecryptFailed", message: "Failed to decrypt client side wallet creds" }
        return WORDS
      }
      if (slot === undefined) throw { _tag: "CredsNotFound", message: "Client side encrypted wallet creds not found" }
      if (slot !== credential.token) throw { _tag: "DecryptFailed", message: "Failed to decrypt client side wallet creds" }
      return WORDS
    },
    addBiometry: async (passcode, token) => {
      log.push(`addBiometry:${passcode}:${token}`)
      slot = token
    },
  }
  return { deps, log }
}

describe("wordsFrom (decision 0520): the words for an operation", () => {
  it("inside the unlock window the vault still gets a credential: needCredential, then the passcode opens it", async () => {
    const d = device({ proofs: [{ kind: "passcode", passcode: "2468" }] })
    expect(await wordsFrom(d.deps)).toEqual(WORDS)
    expect(d.log).toEqual(["verify:true", "open:passcode:2468"])
  })

  it("a biometry proof opens the biometry slot with its own token: no passcode asked", async () => {
    const d = device({ slot: "kvb1.s.t", proofs: [{ kind: "biometry", token: "kvb1.s.t" }] })
    expect(await wordsFrom(d.deps)).toEqual(WORDS)
    expect(d.log).toEqual(["verify:true", "open:biometry:kvb1.s.t"])
  })

  it("no biometry slot yet: the passcode is asked once, opens, and the slot is made from the same token", async () => {
    const d = device({
      proofs: [
        { kind: "biometry", token: "server-token" },
        { kind: "passcode", passcode: "2468" },
      ],
    })
    expect(await wordsFrom(d.deps)).toEqual(WORDS)
    expect(d.log).toEqual(["verify:true", "open:biometry:server-token", "verify:passcode", "open:passcode:2468", "addBiometry:2468:server-token"])
    const next = device({ slot: "server-token", proofs: [{ kind: "biometry", token: "server-token" }] })
    expect(await wordsFrom(next.deps)).toEqual(WORDS)
    expect(next.log).toEqual(["verify:true", "open:biometry:server-token"])
  })

  it("words held in memory need any proof only; cancelling the proof cancels", async () => {
    const d = device({ held: true, proofs: [{ kind: "remembered" }] })
    expect(await wordsFrom(d.deps)).toEqual(WORDS)
    expect(d.log).toEqual(["verify:false"])
    expect(await wordsFrom(device({ proofs: [{ kind: "cancelled" }] }).deps)).toBe("cancelled")
    expect(await wordsFrom(device({ proofs: [{ kind: "biometry", token: "x" }, { kind: "cancelled" }] }).deps)).toBe("cancelled")
  })

  it("no vault for the address: null without asking; no passcode on the device: null", async () => {
    const d = device({ sealed: false, proofs: [] })
    expect(await wordsFrom(d.deps)).toBeNull()
    expect(d.log).toEqual([])
    expect(await wordsFrom(device({ proofs: [{ kind: "none" }] }).deps)).toBeNull()
  })

  it("other vault failures surface with the vault's (spec) text", async () => {
    const d = device({
      proofs: [{ kind: "passcode", passcode: "2468" }],
      failWith: { _tag: "DeviceKeyUnavailable", message: "The device key server could not be reached" },
    })
    const error = await wordsFrom(d.deps).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(VaultOpenError)
    expect(error).toMatchObject({ tag: "DeviceKeyUnavailable", message: "The device key server could not be reached" })
    const biometry = device({
      proofs: [{ kind: "biometry", token: "t" }],
      failWith: { _tag: "SecureStorageFailed", message: "Failed to get secureStorage value" },
    })
    await expect(wordsFrom(biometry.deps)).rejects.toMatchObject({ message: "Failed to get secureStorage value" })
    expect(biometry.log).toEqual(["verify:true", "open:biometry:t"])
  })
})

describe("addBiometrySlotWith (decision 0520): the vault's biometry slot", () => {
  const b64url = (text: string) => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")
  const steps = (options: { onDevice?: boolean; enable?: "ok" | "refused" | "throws" } = {}) => {
    const log: string[] = []
    const s: BiometrySlotSteps = {
      enabledOnDevice: async () => (log.push("onDevice"), options.onDevice ?? true),
      setup: async () => (log.push("setup"), "new-server-token"),
      enable: async (server) => {
        log.push(`enable:${server}`)
        if (options.enable === "throws") throw new Error("device key unavailable")
        return options.enable !== "refused"
      },
      deactivate: async () => void log.push("deactivate"),
    }
    return { s, log }
  }

  it("at sealing with biometry on: a new server token from the setup, then the slot", async () => {
    const { s, log } = steps()
    expect(await addBiometrySlotWith(s)).toBe(true)
    expect(log).toEqual(["onDevice", "setup", "enable:new-server-token"])
  })

  it("biometry off on the device: nothing is asked of the server", async () => {
    const { s, log } = steps({ onDevice: false })
    expect(await addBiometrySlotWith(s)).toBe(false)
    expect(log).toEqual(["onDevice"])
  })

  it("a failed slot after the setup turns biometry off on the server", async () => {
    for (const enable of ["refused", "throws"] as const) {
      const { s, log } = steps({ enable })
      expect(await addBiometrySlotWith(s)).toBe(false)
      expect(log).toEqual(["onDevice", "setup", "enable:new-server-token", "deactivate"])
    }
  })

  it("repairing from a proof's token keeps its server part: no setup, no deactivation", async () => {
    const vaultToken = `kvb1.${b64url("old-secret".padEnd(32, "x"))}.${b64url("server-token-0123456789")}`
    const repaired = steps({ enable: "refused" })
    expect(await addBiometrySlotWith(repaired.s, vaultToken)).toBe(false)
    expect(repaired.log).toEqual(["enable:server-token-0123456789"])
    const raw = steps()
    expect(await addBiometrySlotWith(raw.s, "raw-server-token-0123456789")).toBe(true)
    expect(raw.log).toEqual(["enable:raw-server-token-0123456789"])
  })
})

describe("vault open errors on screens (decision 0530)", () => {
  it("vault open errors show the spec's text; other failures are left to the screen", async () => {
    const { vaultErrorText } = await import("./flows.ts")
    const t = (key: string, options?: Record<string, unknown>) => `${key}|${String(options?.reason ?? "")}`
    expect(vaultErrorText(t, new VaultOpenError("Failed to decrypt client side wallet creds", "DecryptFailed"))).toBe(
      "vaultOpen.failed|Failed to decrypt client side wallet creds",
    )
    expect(vaultErrorText(t, new VaultOpenError("externalId not found", "ExternalIdNotFound"))).toBe("vaultOpen.failed|externalId not found")
    expect(vaultErrorText(t, new Error("network"))).toBeUndefined()
  })
})

describe("the TON space's beforePasscodeChange hook (decision 0530)", () => {
  const input = { current: "2468", next: "1357" }
  it("adds a slot for the new passcode when the passcode opens a vault on this device", async () => {
    const changed: Array<PasscodeChange> = []
    expect(await rekeyWith({ sealed: async () => true, change: async (c) => void changed.push(c) }, input)).toBe("rekeyed")
    expect(changed).toEqual([input])
  })
  it("does nothing without such a vault", async () => {
    const changed: Array<PasscodeChange> = []
    expect(await rekeyWith({ sealed: async () => false, change: async (c) => void changed.push(c) }, input)).toBe("no-vault")
    expect(changed).toEqual([])
  })
  it("rejects when the vault cannot be re-keyed, so the passcode plugin reports it (and still changes the passcode)", async () => {
    await expect(rekeyWith({ sealed: async () => true, change: () => Promise.reject(new Error("DeviceKeyUnavailable")) }, input)).rejects.toThrow(
      "DeviceKeyUnavailable",
    )
  })
})
