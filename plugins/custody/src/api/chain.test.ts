import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { addressRetryDelayMs, CreateWithdrawResponse, hasAddressFor, toClientAddressError, WithdrawLimits } from "./chain.ts"

describe("the on-chain contract helpers", () => {
  it("maps raw address check codes to the client's errors (spec 2 §5)", () => {
    expect(toClientAddressError("invalid_number_of_characters")).toBe("invalid_length")
    expect(toClientAddressError("withdraw_to_yourself_is_forbidden")).toBe("yourself")
    expect(toClientAddressError("invalid_domain")).toBe("invalid_domain")
    expect(toClientAddressError("address_forbidden")).toBe("address_forbidden")
    expect(toClientAddressError("invalid_web3_domain")).toBe("invalid_web3_domain")
    expect(toClientAddressError("something_new")).toBe("invalid_address")
    expect(toClientAddressError(undefined)).toBe("invalid_address")
  })

  it("retries address creation with the spec's delays (spec 1 §9)", () => {
    expect([1, 2, 3, 4, 6, 7, 9, 10, 20].map(addressRetryDelayMs)).toEqual([0, 0, 0, 200, 200, 2000, 2000, 4000, 4000])
    expect(hasAddressFor({ addresses: [{ address: "x", network_code: "tron", wallet_to_replace: null }] }, "ton")).toBe(false)
    expect(hasAddressFor({ addresses: [{ address: "x", network_code: "ton", wallet_to_replace: null }] }, "ton")).toBe(true)
  })

  it("sends amounts as decimal strings and decodes them to bigint", () => {
    const codec = Schema.toCodecJson(WithdrawLimits)
    const wire = Schema.encodeSync(codec)({
      currency: "TON",
      network_code: "ton",
      decimals: 9,
      fee: 10_000_000n,
      min_amount: 1n,
      max_amount: 10n ** 15n,
      max_sendable: 0n,
    })
    const json = wire as Record<string, unknown>
    expect(json.fee).toBe("10000000")
    expect(Schema.decodeUnknownSync(codec)(wire).max_amount).toBe(10n ** 15n)
    expect(() => Schema.decodeUnknownSync(codec)({ ...json, fee: "-1" })).toThrow()
    const banner = Schema.decodeUnknownSync(Schema.toCodecJson(CreateWithdrawResponse))({
      kind: "alerting_banner",
      alerting_banner: { code: "x", title: "t", message: "m" },
    })
    expect(banner.kind).toBe("alerting_banner")
  })
})
