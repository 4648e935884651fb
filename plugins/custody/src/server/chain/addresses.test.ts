import { Address } from "@ton/core"
import { describe, expect, it } from "vitest"
import { canonicalAddress, checkBitcoin, checkEthereum, checkSolana, checkTon, checkTron, looksLikeDomain, simDepositAddress } from "./addresses.ts"

const code = (check: { ok: boolean; code?: string }) => (check.ok ? "ok" : check.code)
const seed = new Uint8Array(32).fill(7)

describe("address formats", () => {
  it("ethereum: 42 characters, EIP-55 enforced only on mixed case", () => {
    for (const good of [
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    ]) {
      expect(checkEthereum(good)).toEqual({ ok: true, address: good })
      expect(code(checkEthereum(good.toLowerCase()))).toBe("ok")
    }
    expect(code(checkEthereum("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"))).toBe("invalid_address")
    expect(code(checkEthereum("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA"))).toBe("invalid_number_of_characters")
    expect(code(checkEthereum("0xZZ"))).toBe("invalid_address")
  })

  it("tron: base58check with the 0x41 version byte", () => {
    expect(code(checkTron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"))).toBe("ok")
    expect(code(checkTron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"))).toBe("invalid_address")
    expect(code(checkTron("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj"))).toBe("invalid_number_of_characters")
    expect(code(checkTron("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"))).toBe("invalid_address")
  })

  it("solana: base58 of 32 bytes", () => {
    expect(code(checkSolana("11111111111111111111111111111111"))).toBe("ok")
    expect(code(checkSolana("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"))).toBe("ok")
    expect(code(checkSolana("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vX"))).toBe("invalid_number_of_characters")
    expect(code(checkSolana("0OIl1111111111111111111111111111111"))).toBe("invalid_address")
  })

  it("bitcoin: bech32 v0, bech32m taproot, legacy base58check", () => {
    expect(checkBitcoin("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ")).toEqual({ ok: true, address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" })
    expect(code(checkBitcoin("bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"))).toBe("ok")
    expect(code(checkBitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"))).toBe("ok")
    expect(code(checkBitcoin("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"))).toBe("ok")
    expect(code(checkBitcoin("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp"))).toBe("invalid_address")
    expect(code(checkBitcoin("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5m"))).toBe("invalid_number_of_characters")
    expect(code(checkBitcoin("tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx"))).toBe("invalid_address")
    expect(code(checkBitcoin("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"))).toBe("invalid_address")
  })

  it("ton: raw and friendly forms, checksum and test-only flag", () => {
    const address = new Address(0, Buffer.alloc(32, 0x11))
    const friendly = address.toString({ bounceable: false })
    expect(code(checkTon(friendly, { testnet: false }))).toBe("ok")
    expect(code(checkTon(address.toRawString(), { testnet: false }))).toBe("ok")
    expect(code(checkTon(`${friendly.slice(0, 47)}${friendly.endsWith("A") ? "B" : "A"}`, { testnet: false }))).toBe("invalid_address")
    expect(code(checkTon(friendly.slice(0, 40), { testnet: false }))).toBe("invalid_number_of_characters")
    expect(code(checkTon(address.toString({ testOnly: true }), { testnet: false }))).toBe("invalid_address")
    expect(code(checkTon(address.toString({ testOnly: true }), { testnet: true }))).toBe("ok")
    expect(canonicalAddress("ton", friendly)).toBe(address.toRawString())
  })

  it("derives valid, distinct, stable deposit addresses per network", () => {
    const checks = { tron: checkTron, ethereum: checkEthereum, solana: checkSolana, bitcoin: checkBitcoin } as const
    for (const network of ["tron", "ethereum", "solana", "bitcoin"] as const) {
      const a = simDepositAddress(network, seed, "deposit:1")
      expect(simDepositAddress(network, seed, "deposit:1")).toBe(a)
      expect(simDepositAddress(network, seed, "deposit:2")).not.toBe(a)
      expect(code(checks[network](a))).toBe("ok")
    }
    expect(simDepositAddress("tron", seed, "deposit:1")).toMatch(/^T/)
    expect(simDepositAddress("bitcoin", seed, "deposit:1")).toMatch(/^bc1q/)
  })

  it("recognises domain-like input", () => {
    expect(looksLikeDomain("alice.ton")).toBe(true)
    expect(looksLikeDomain("vitalik.eth")).toBe(true)
    expect(looksLikeDomain("UQAbc")).toBe(false)
  })
})
