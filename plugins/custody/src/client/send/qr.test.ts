import { describe, expect, it } from "vitest"
import { canonicalDecimal, detectAddress, nanoToDecimal, parseQr } from "./qr.ts"

const TON = "EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2"
const TON_TEST = "0QAs9VlT6S776tq3unJcP5Ogsj-ELLunLXuOb1EKcOQi4-QO"
const TON_RAW = `0:${"a".repeat(64)}`
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const BTC_LEGACY = "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"
const ETH = "0x52908400098527886E0F7030069857D2E4169EE7"
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
const SOL = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV"

describe("detectAddress", () => {
  it.each([
    [TON, "ton", "TON"],
    [TON_TEST, "ton", "TON"],
    [TON_RAW, "ton", "TON"],
    ["alice.ton", "ton", "TON"],
    ["bob.t.me", "ton", "TON"],
    [BTC, "bitcoin", "BTC"],
    [BTC_LEGACY, "bitcoin", "BTC"],
    [ETH, "ethereum", "ETH"],
    [TRON, "tron", "USDT"],
    [SOL, "solana", "SOL"],
  ])("%s is %s / %s", (address, network, currency) => {
    expect(detectAddress(address)).toEqual({ network, currency })
  })

  it.each(["hello", "0x123", "EQshort", "", "alice.com"])("%s is unknown", (address) => {
    expect(detectAddress(address)).toBeUndefined()
  })
})

describe("decimal helpers", () => {
  it("divides nano units by 10^9 exactly, without floats", () => {
    expect(nanoToDecimal("1500000000")).toBe("1.5")
    expect(nanoToDecimal("1")).toBe("0.000000001")
    expect(nanoToDecimal("0")).toBe("0")
    expect(nanoToDecimal("123456789012345678901234567")).toBe("123456789012345678.901234567")
    expect(nanoToDecimal("000002000000000")).toBe("2")
  })
  it("canonicalises decimals", () => {
    expect(canonicalDecimal("007.500")).toBe("7.5")
    expect(canonicalDecimal("0.0")).toBe("0")
    expect(canonicalDecimal("10")).toBe("10")
  })
})

describe("parseQr: plain addresses", () => {
  it("a bare TON address", () => {
    expect(parseQr(TON)).toEqual({ kind: "address", source: "plain", address: TON, network: "ton", currency: "TON" })
  })
  it("trims whitespace around the text", () => {
    expect(parseQr(`  ${BTC}\n`)).toMatchObject({ kind: "address", address: BTC, currency: "BTC" })
  })
  it("a raw TON address with a workchain is not mistaken for a scheme", () => {
    expect(parseQr(TON_RAW)).toMatchObject({ kind: "address", address: TON_RAW, network: "ton" })
  })
  it("a plain address with a decimal amount and a text", () => {
    expect(parseQr(`${TRON}?amount=12.5&text=rent`)).toEqual({
      kind: "address",
      source: "plain",
      address: TRON,
      network: "tron",
      currency: "USDT",
      amount: "12.5",
      text: "rent",
    })
  })
  it("unknown text is the default error", () => {
    expect(parseQr("hello world")).toEqual({ kind: "error", error: "default" })
    expect(parseQr("")).toEqual({ kind: "error", error: "default" })
    expect(parseQr("https://example.com/pay")).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ethereum:${ETH}`)).toEqual({ kind: "error", error: "default" })
  })
})

describe("parseQr: ton-transfer links (nano amounts)", () => {
  it("ton://transfer with amount in nano units and a text", () => {
    expect(parseQr(`ton://transfer/${TON}?amount=2500000000&text=for%20coffee`)).toEqual({
      kind: "address",
      source: "ton-transfer",
      address: TON,
      network: "ton",
      currency: "TON",
      amount: "2.5",
      text: "for coffee",
    })
  })
  it("the prefix is matched case-insensitively and a trailing slash is dropped", () => {
    expect(parseQr(`TON://transfer/${TON}/?amount=1`)).toMatchObject({ address: TON, amount: "0.000000001" })
  })
  it("tonkeeper forms are ton-transfer links too", () => {
    expect(parseQr(`https://app.tonkeeper.com/transfer/${TON_TEST}?amount=1000000000`)).toMatchObject({ source: "ton-transfer", amount: "1" })
    expect(parseQr(`tonkeeper://transfer/${TON_TEST}`)).toMatchObject({ source: "ton-transfer", address: TON_TEST })
  })
  it("without amount or with a zero amount there is no amount", () => {
    expect(parseQr(`ton://transfer/${TON}`)).not.toHaveProperty("amount")
    expect(parseQr(`ton://transfer/${TON}?amount=0`)).not.toHaveProperty("amount")
  })
  it.each(["1.5", "-1", "1e9", "Infinity", "NaN", "0x10", "", "12 000"])("a nano amount '%s' fails the check: default error", (amount) => {
    expect(parseQr(`ton://transfer/${TON}?amount=${encodeURIComponent(amount)}`)).toEqual({ kind: "error", error: "default" })
  })
  it("params the wallet cannot honour are refused", () => {
    expect(parseQr(`ton://transfer/${TON}?bin=te6cc`)).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ton://transfer/${TON}?init=te6cc`)).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ton://transfer/${TON}?jetton=${TON_TEST}&amount=1`)).toEqual({ kind: "error", error: "unsupported_currency" })
  })
  it("a non-TON address in a TON link is the default error", () => {
    expect(parseQr(`ton://transfer/${BTC}`)).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ton://transfer/`)).toEqual({ kind: "error", error: "default" })
  })
  it("a malformed escape in the address is the default error", () => {
    expect(parseQr(`ton://transfer/%E0%A4%A?amount=1`)).toEqual({ kind: "error", error: "default" })
  })
})

describe("parseQr: ton: and bitcoin: prefixes (decimal amounts)", () => {
  it("ton: with a decimal amount", () => {
    expect(parseQr(`ton:${TON}?amount=3.25`)).toMatchObject({ source: "ton", address: TON, currency: "TON", amount: "3.25" })
  })
  it("bitcoin: with a BIP-21 amount in BTC", () => {
    expect(parseQr(`bitcoin:${BTC}?amount=0.00100000&label=shop`)).toEqual({
      kind: "address",
      source: "bitcoin",
      address: BTC,
      network: "bitcoin",
      currency: "BTC",
      amount: "0.001",
    })
  })
  it("BIP-21 required params (req-*) are refused", () => {
    expect(parseQr(`bitcoin:${BTC}?req-somethingyoudontunderstand=50`)).toEqual({ kind: "error", error: "default" })
  })
  it("more fraction digits than the currency has fail the check", () => {
    expect(parseQr(`bitcoin:${BTC}?amount=0.000000001`)).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ton:${TON}?amount=0.0000000001`)).toEqual({ kind: "error", error: "default" })
  })
  it.each(["1,5", "-2", "1e3", "Infinity", ".5", "abc"])("an amount '%s' that is not a finite plain decimal fails", (amount) => {
    expect(parseQr(`bitcoin:${BTC}?amount=${encodeURIComponent(amount)}`)).toEqual({ kind: "error", error: "default" })
  })
  it("a prefix with the wrong network's address is refused", () => {
    expect(parseQr(`bitcoin:${TON}`)).toEqual({ kind: "error", error: "default" })
    expect(parseQr(`ton:${BTC}`)).toEqual({ kind: "error", error: "default" })
  })
})

describe("parseQr: TonConnect links", () => {
  const r = JSON.stringify({ manifestUrl: "https://dapp.example/m.json", items: [{ name: "ton_addr" }] })
  it("tc:// and universal links go to the connect screen with v, id, r and ret", () => {
    const query = new URLSearchParams({ v: "2", id: "ab".repeat(32), r, ret: "none" }).toString()
    expect(parseQr(`tc://?${query}`)).toEqual({ kind: "tonconnect", search: { v: "2", id: "ab".repeat(32), r, ret: "none" } })
    expect(parseQr(`https://wallet.example/ton-connect?${query}`)).toEqual({ kind: "tonconnect", search: { v: "2", id: "ab".repeat(32), r, ret: "none" } })
  })
  it("a tc:// link missing params still goes there (the screen shows the spec's error); other URLs do not", () => {
    expect(parseQr("tc://?v=2")).toEqual({ kind: "tonconnect", search: { v: "2" } })
    expect(parseQr("https://example.com/?v=2&id=1")).toEqual({ kind: "error", error: "default" })
  })
})

describe("parseQr: wallet deep links", () => {
  it("https://t.me/wallet?startapp=… gives the start param", () => {
    expect(parseQr("https://t.me/wallet?startapp=tonwallet_tg_transfer_42")).toEqual({ kind: "deeplink", startParam: "tonwallet_tg_transfer_42" })
    expect(parseQr("t.me/wallet/start?startapp=receive")).toEqual({ kind: "deeplink", startParam: "receive" })
    expect(parseQr("tg://resolve?domain=wallet&startapp=sendOptions")).toEqual({ kind: "deeplink", startParam: "sendOptions" })
  })
  it("a wallet link whose start param fails the check is the default error", () => {
    expect(parseQr("https://t.me/wallet?startapp=bad%20param")).toEqual({ kind: "error", error: "default" })
    expect(parseQr("https://t.me/wallet?foo=1")).toEqual({ kind: "error", error: "default" })
    expect(parseQr("tg://resolve?domain=otherbot&startapp=x")).toEqual({ kind: "error", error: "default" })
  })
  it("another bot's link is not a wallet link", () => {
    expect(parseQr("https://t.me/otherbot?startapp=x")).toEqual({ kind: "error", error: "default" })
  })
})
