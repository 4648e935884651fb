import { Address, beginCell } from "@ton/core"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { bundleKeyDifferences } from "@wallet/kernel"
import type { MessageConsequences } from "@wallet/kernel/chain"
import { encodeStartParam, MISSING_PARAMS_MESSAGE } from "../engine/links.ts"
import { ManifestError } from "../engine/manifest.ts"
import { BridgeError } from "../engine/bridge.ts"
import { SignerError } from "../engine/signer.ts"
import { decodeTransaction, RequestError } from "../engine/transaction.ts"
import { hasStoredSessions } from "../listener.ts"
import {
  connectErrorKey,
  connectParamsOf,
  connectStart,
  engineVersionOf,
  formatCountdown,
  formatUnits,
  requestErrorKey,
  secondsLeft,
  shortAddress,
  signDataView,
  transactionView,
} from "./logic.ts"
import en from "../i18n/en.json"
import ru from "../i18n/ru.json"

const clientId = "ab".repeat(32)
const request = JSON.stringify({
  manifestUrl: "https://dapp.example/tonconnect-manifest.json",
  items: [{ name: "ton_addr" }, { name: "ton_proof", payload: "p-1" }],
})
const query = new URLSearchParams({ v: "2", id: clientId, r: request, ret: "none" }).toString()
const ios = { platform: "ios", version: "8.0" }

describe("connect link -> screen state", () => {
  it("unpacks the startapp deep link's rest into v, id, r and ret", () => {
    const params = connectParamsOf({ startapp: encodeStartParam(query) })
    expect(params).toEqual({ v: "2", id: clientId, r: request, ret: "none" })
    const start = connectStart({ startapp: encodeStartParam(query) }, ios)
    expect(start.kind).toBe("link")
    if (start.kind === "link") {
      expect(start.link.clientId).toBe(clientId)
      expect(start.link.request.manifestUrl).toBe("https://dapp.example/tonconnect-manifest.json")
      expect(start.link.ret).toBe("none")
    }
  })

  it("takes r already parsed by the router as an object", () => {
    const start = connectStart({ v: "2", id: clientId, r: JSON.parse(request) as unknown }, ios)
    expect(start.kind === "link" && start.link.request.items.length).toBe(2)
  })

  it("a link without r, v or id is the spec's error, whatever the client", () => {
    for (const search of [{ v: "2", id: clientId }, { id: clientId, r: request }, { v: "2", r: request }, {}]) {
      expect(connectStart(search, { platform: "tdesktop", version: "8.0" })).toEqual({ kind: "error", key: "missingParams" })
    }
    expect(en.connect.error.missingParams).toBe(MISSING_PARAMS_MESSAGE)
    expect(connectStart({ v: "2", id: "zz", r: request }, ios)).toEqual({ kind: "error", key: "badLink" })
    expect(connectStart({ v: "2", id: clientId, r: "{not json" }, ios)).toEqual({ kind: "error", key: "badLink" })
  })

  it("only iOS and Android 6.4+ may connect; others are told why", () => {
    const search = { v: "2", id: clientId, r: request }
    expect(connectStart(search, { platform: "tdesktop", version: "8.0" })).toEqual({ kind: "unavailable", reason: "platform" })
    expect(connectStart(search, { platform: "android", version: "6.3" })).toEqual({ kind: "unavailable", reason: "version" })
    expect(connectStart(search, { platform: "android", version: "6.4" }).kind).toBe("link")
  })

  it("maps manifest errors 2 and 3 and transport failures to their texts", () => {
    expect(connectErrorKey(new ManifestError({ code: 2, message: "x" }))).toBe("manifestNotFound")
    expect(connectErrorKey(new ManifestError({ code: 3, message: "x" }))).toBe("manifestContent")
    expect(connectErrorKey(new BridgeError({ message: "down" }))).toBe("bridge")
    expect(connectErrorKey(new RequestError({ code: 1, message: "the wallet is on -239, the dApp asked for -3" }))).toBe("network")
    expect(connectErrorKey(new Error("?"))).toBe("unknown")
  })

  it("connects W5 and v4R2 wallets only", () => {
    expect(engineVersionOf("v5r1")).toBe("v5r1")
    expect(engineVersionOf("v4r2")).toBe("v4r2")
    expect(engineVersionOf("v3r2")).toBeNull()
  })
})

const me = Address.parseRaw(`0:${"11".repeat(32)}`)
const other = Address.parseRaw(`0:${"22".repeat(32)}`)
const jettonWallet = Address.parseRaw(`0:${"33".repeat(32)}`)
const now = 1_800_000_000
const decode = (payload: object, version?: "v4r2") =>
  Effect.runPromise(
    Effect.result(decodeTransaction(JSON.stringify(payload), { address: me.toRawString(), network: "-239", ...(version ? { version } : {}) }, now)),
  )

const account = (address: string) => ({ address, is_scam: false, is_wallet: true })
const consequences = (
  overrides: { gram?: bigint; extra?: bigint; status?: "ok" | "failed"; jettonVerification?: "whitelist" | "blacklist" } = {},
): MessageConsequences =>
  ({
    trace: { transaction: { hash: "h", lt: 1, success: true, account: account(me.toRawString()) }, interfaces: [] },
    risk: {
      transfer_all_remaining_balance: false,
      gram: overrides.gram ?? 1_500_000_000n,
      jettons: [
        {
          quantity: 2_500_000n,
          wallet_address: account(jettonWallet.toRawString()),
          jetton: { address: "0:44", name: "Tether", symbol: "USDT", decimals: 6, image: "", verification: overrides.jettonVerification ?? "whitelist" },
        },
      ],
      nfts: [],
    },
    event: {
      event_id: "e",
      account: account(me.toRawString()),
      timestamp: now,
      actions: [{ type: "TonTransfer", status: overrides.status ?? "ok", simple_preview: { name: "", description: "", accounts: [] }, base_transactions: [] }],
      is_scam: false,
      lt: 1,
      in_progress: false,
      extra: overrides.extra ?? -3_000_000n,
    },
  }) as unknown as MessageConsequences

describe("request -> view model", () => {
  it("lists every message and what the emulation says leaves the wallet", async () => {
    const jetton = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(7, 64)
      .storeCoins(2_500_000n)
      .storeAddress(other)
      .storeAddress(me)
      .storeMaybeRef(null)
      .storeCoins(1n)
      .storeBit(0)
      .endCell()
    const decoded = await decode({
      valid_until: now + 120,
      messages: [
        {
          address: other.toString({ bounceable: false }),
          amount: "1500000000",
          payload: beginCell().storeUint(0, 32).storeStringTail("for lunch").endCell().toBoc().toString("base64"),
        },
        { address: jettonWallet.toString(), amount: "50000000", payload: jetton.toBoc().toString("base64") },
      ],
    })
    if (decoded._tag !== "Success") throw new Error("decode failed")
    const view = transactionView(decoded.success, consequences(), (raw, bounceable) => `${bounceable ? "E" : "U"}(${raw.slice(0, 4)})`)
    expect(view.rows).toEqual([
      { kind: "ton", to: "U(0:22)", amount: "1.5 TON", comment: "for lunch" },
      { kind: "jetton", to: "E(0:22)", jettonWallet: "E(0:33)", units: 2_500_000n, amount: "2.5 USDT", attached: "0.05 TON" },
    ])
    expect(view.attachedTon).toBe(1_550_000_000n)
    expect(view.validUntil).toBe(now + 120)
    expect(view.outflow).toEqual({
      ton: 1_500_000_000n,
      jettons: [{ symbol: "USDT", amount: "2.5", verified: true }],
      nfts: [],
      fee: 3_000_000n,
      allRemainingBalance: false,
    })
    expect(view.risk).toBe("none")
    // Before the emulation answers: the rows only (the jetton not named yet).
    const early = transactionView(decoded.success, undefined)
    expect(early.outflow).toBeUndefined()
    expect(early.rows[1]).not.toHaveProperty("amount")
  })

  it("flags a failing action, a blacklisted jetton", async () => {
    const decoded = await decode({ messages: [{ address: other.toString(), amount: "1" }] })
    if (decoded._tag !== "Success") throw new Error("decode failed")
    expect(transactionView(decoded.success, consequences({ status: "failed" })).risk).toBe("failed")
    expect(transactionView(decoded.success, consequences({ jettonVerification: "blacklist" })).risk).toBe("scam")
    expect(transactionView(decoded.success, consequences({ extra: 5n })).outflow?.fee).toBeUndefined()
  })

  it("maps the protocol's refusals to the user's texts", async () => {
    const keyOf = async (payload: object, version?: "v4r2") => {
      const result = await decode(payload, version)
      return result._tag === "Failure" ? requestErrorKey(result.failure) : "accepted"
    }
    expect(await keyOf({ valid_until: now - 1, messages: [{ address: other.toString(), amount: "1" }] })).toBe("expired")
    expect(await keyOf({ network: "-3", messages: [{ address: other.toString(), amount: "1" }] })).toBe("network")
    expect(await keyOf({ from: other.toRawString(), messages: [{ address: other.toString(), amount: "1" }] })).toBe("from")
    expect(await keyOf({ messages: Array.from({ length: 5 }, () => ({ address: other.toString(), amount: "1" })) }, "v4r2")).toBe("tooMany")
    expect(await keyOf({ messages: [{ address: "nope", amount: "1" }] })).toBe("badRequest")
    expect(requestErrorKey(new SignerError({ cancelled: false, message: "the wallet's key is unavailable" }))).toBe("unavailable")
    expect(requestErrorKey(new BridgeError({ message: "the session is gone (the dApp disconnected)" }))).toBe("gone")
    expect(requestErrorKey({ _tag: "ChainError", message: "400" })).toBe("refused")
  })

  it("summarises signData payloads", () => {
    expect(signDataView({ type: "text", text: "I agree" })).toEqual({ kind: "text", text: "I agree" })
    expect(signDataView({ type: "binary", bytes: btoa("\x01\x02\xff") })).toEqual({ kind: "binary", bytes: 3, preview: "01 02 ff" })
    expect(
      signDataView({ type: "cell", schema: "message#_ text:^Cell = Message;", cell: beginCell().storeUint(1, 8).endCell().toBoc().toString("base64") }).kind,
    ).toBe("cell")
  })
})

describe("formatting", () => {
  it("keeps amounts exact (bigint), truncates and spaces thousands", () => {
    expect(formatUnits(1_234_567_890_123n, 9)).toBe("1 234.567890123")
    expect(formatUnits(1_000_000_000n, 9)).toBe("1")
    expect(formatUnits(1_999_999_999n, 9, 2)).toBe("1.99")
    expect(formatUnits(-5n, 0)).toBe("-5")
    expect(shortAddress("UQabcdefghijklmn")).toBe("UQ…klmn")
    expect(shortAddress("abc")).toBe("abc")
  })

  it("counts down to valid_until", () => {
    expect(secondsLeft(undefined, now)).toBeUndefined()
    expect(secondsLeft(now + 75, now)).toBe(75)
    expect(secondsLeft(now - 3, now)).toBe(0)
    expect(formatCountdown(75)).toBe("1:15")
  })
})

describe("listener entry", () => {
  it("loads the engine only when the device holds a session", () => {
    const store = (entries: Record<string, string>) => ({
      length: Object.keys(entries).length,
      key: (i: number) => Object.keys(entries)[i] ?? null,
      getItem: (k: string) => entries[k] ?? null,
    })
    expect(hasStoredSessions(store({}))).toBe(false)
    expect(hasStoredSessions(store({ "wallet:tonconnect:v1:-239:0:aa": JSON.stringify({ sessions: [] }) }))).toBe(false)
    expect(hasStoredSessions(store({ "wallet:other": "x", "wallet:tonconnect:v1:-239:0:aa": JSON.stringify({ sessions: [{ id: "s" }] }) }))).toBe(true)
    expect(hasStoredSessions(store({ "wallet:tonconnect:v1:-3:0:aa": "{broken" }))).toBe(false)
  })
})

describe("strings", () => {
  it("en and ru have the same keys", () => {
    expect(bundleKeyDifferences(en, ru)).toEqual({ missing: [], extra: [] })
  })
})
