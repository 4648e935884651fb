import { describe, expect, it } from "vitest"
import {
  accessInfoOf,
  assetActionAllowed,
  exchangeBlocked,
  p2pBlocked,
  stockTradingAvailable,
  type AccessInfo,
  activeStep,
  blockedPermissions,
  computePermissions,
  effectiveLevel,
  level1StatusOf,
  meetsLevel,
  shownSteps,
  stepStatuses,
  toClientPermissions,
  type Block,
  type StepFacts,
} from "./domain.ts"

const full = (code: "BR_001" | "BR_015" = "BR_001"): Block => ({
  kind: "full",
  code,
  requiredAction: code === "BR_001" ? "CS_001" : null,
  unblockingCondition: null,
})
const partial = (permission: "canUseP2p" | "canWithdrawOuter"): Block => ({ kind: "partial", code: "PBR_002", requiredAction: "CS_002", permission })

describe("levels (spec 3 §3)", () => {
  it("orders BLOCKED, LEVEL_0 … LEVEL_4; a user meets a level at or above it", () => {
    expect(meetsLevel("LEVEL_2", "LEVEL_1")).toBe(true)
    expect(meetsLevel("LEVEL_1", "LEVEL_1")).toBe(true)
    expect(meetsLevel("LEVEL_0", "LEVEL_1")).toBe(false)
    expect(meetsLevel("BLOCKED", "LEVEL_0")).toBe(false)
    expect(meetsLevel("LEVEL_4", "BLOCKED")).toBe(true)
  })

  it("a full block shows as BLOCKED whatever the held level; a partial block does not", () => {
    expect(effectiveLevel({ level: "LEVEL_2", blocks: [full()] })).toBe("BLOCKED")
    expect(effectiveLevel({ level: "LEVEL_2", blocks: [partial("canUseP2p")] })).toBe("LEVEL_2")
  })
})

describe("computePermissions (issue 19: from level, blocks and country)", () => {
  it("level 0 moves money but has no P2P, raffle or merchant; level 1 adds P2P and the raffle; level 2 the merchant", () => {
    const l0 = computePermissions({ level: "LEVEL_0", blocks: [], country: "DE" })
    expect(l0).toMatchObject({ can_top_up: true, can_withdraw_outer: true, can_use_p2p: false, can_usdt_raffle: false, can_use_wpay_as_merchant: false })
    const l1 = computePermissions({ level: "LEVEL_1", blocks: [], country: "DE" })
    expect(l1).toMatchObject({ can_use_p2p: true, can_usdt_raffle: true, can_use_wpay_as_merchant: false })
    expect(computePermissions({ level: "LEVEL_2", blocks: [], country: "DE" }).can_use_wpay_as_merchant).toBe(true)
  })

  it("a full block closes everything", () => {
    const blocked = computePermissions({ level: "LEVEL_3", blocks: [full("BR_015")], country: "DE" })
    expect(Object.values(blocked).every((value) => value === false)).toBe(true)
  })

  it("a partial block closes only its permission", () => {
    const out = computePermissions({ level: "LEVEL_2", blocks: [partial("canWithdrawOuter")], country: "DE" })
    expect(out.can_withdraw_outer).toBe(false)
    expect(out.can_withdraw_inner).toBe(true)
    expect(out.can_use_p2p).toBe(true)
  })

  it("P2P is closed for a resident of a restricted country at any level", () => {
    expect(computePermissions({ level: "LEVEL_4", blocks: [], country: "RU" }).can_use_p2p).toBe(false)
    expect(computePermissions({ level: "LEVEL_4", blocks: [], country: "RU" }).can_exchange).toBe(true)
  })

  it("the client form renames the flags and drops the merchant one", () => {
    const client = toClientPermissions(computePermissions({ level: "LEVEL_0", blocks: [partial("canWithdrawOuter")], country: null }))
    expect(Object.keys(client).sort()).toEqual([
      "canBuy",
      "canExchange",
      "canRaffle",
      "canReceive",
      "canUseP2p",
      "canUseWpayAsPayer",
      "canWithdrawInner",
      "canWithdrawOuter",
    ])
    expect(client.canReceive).toBe(true)
    expect(blockedPermissions(client)).toEqual(["canRaffle", "canUseP2p", "canWithdrawOuter"])
  })
})

describe("level1StatusOf", () => {
  const given = { blocked: false, phone: "+4915112345678", countryRequired: false, country: null, name: "Ann Lee" }
  it("asks for the phone, then the country when required, then the name; then passes", () => {
    expect(level1StatusOf({ ...given, phone: null })).toBe("PHONE_NUMBER_REQUIRED")
    expect(level1StatusOf({ ...given, countryRequired: true })).toBe("SELF_DECLARED_COUNTRY_REQUIRED")
    expect(level1StatusOf({ ...given, countryRequired: true, country: "DE", name: null })).toBe("SELF_DECLARED_NAME_REQUIRED")
    expect(level1StatusOf(given)).toBe("PASSED")
    expect(level1StatusOf({ ...given, blocked: true })).toBe("USER_BLOCKED")
  })
})

describe("the verification steps (spec 3 §4.2)", () => {
  const facts = (over: Partial<StepFacts>): StepFacts => ({
    level: "LEVEL_0",
    level1Status: "PHONE_NUMBER_REQUIRED",
    requiredLevel: "LEVEL_1",
    shouldShowCountryStep: false,
    ...over,
  })

  it("the active step follows level1Status; the name step is basicInfo for level 1 and nationalId beyond", () => {
    expect(activeStep(facts({}))).toBe("phoneNumber")
    expect(activeStep(facts({ level1Status: "SELF_DECLARED_COUNTRY_REQUIRED" }))).toBe("country")
    expect(activeStep(facts({ level1Status: "SELF_DECLARED_NAME_REQUIRED" }))).toBe("basicInfo")
    expect(activeStep(facts({ level1Status: "SELF_DECLARED_NAME_REQUIRED", requiredLevel: "LEVEL_2" }))).toBe("nationalId")
    expect(activeStep(facts({ level1Status: "PASSED", level: "LEVEL_1", requiredLevel: "LEVEL_2" }))).toBe("nationalId")
    expect(activeStep(facts({ level1Status: "PASSED", level: "LEVEL_2", requiredLevel: "LEVEL_2" }))).toBeNull()
    expect(activeStep(facts({ forcedStep: "country" }))).toBe("country")
  })

  it("shows phone always, country when required or flagged, basicInfo below level 2, nationalId at levels 2 and 3", () => {
    expect(shownSteps(facts({}))).toEqual(["phoneNumber", "basicInfo"])
    expect(shownSteps(facts({ shouldShowCountryStep: true }))).toEqual(["phoneNumber", "country", "basicInfo"])
    expect(shownSteps(facts({ level1Status: "SELF_DECLARED_COUNTRY_REQUIRED", requiredLevel: "LEVEL_2" }))).toEqual(["phoneNumber", "country", "nationalId"])
    expect(shownSteps(facts({ requiredLevel: "LEVEL_3" }))).toEqual(["phoneNumber", "nationalId"])
  })

  it("steps before the active one are completed, after it disabled; the phone step is pending while it saves", () => {
    const at = facts({ level1Status: "SELF_DECLARED_NAME_REQUIRED", shouldShowCountryStep: true })
    expect(stepStatuses(at)).toEqual([
      { step: "phoneNumber", status: "completed" },
      { step: "country", status: "completed" },
      { step: "basicInfo", status: "active" },
    ])
    expect(stepStatuses(facts({}), { savingPhone: true })[0]).toEqual({ step: "phoneNumber", status: "pending" })
    expect(stepStatuses(facts({}))[1]).toEqual({ step: "basicInfo", status: "disabled" })
    expect(stepStatuses(facts({ level1Status: "PASSED", level: "LEVEL_1" })).every((s) => s.status === "completed")).toBe(true)
  })
})

describe("access info and the action rules (spec 3 §3, §4.2)", () => {
  const access = (overrides: Partial<AccessInfo> = {}): AccessInfo => ({
    accessToWithdraws: true,
    accessToExchanges: true,
    accessToExchangesByCountry: true,
    accessToP2p: true,
    ...overrides,
  })

  it("derives from the permissions and the residence: P2P closed in a restricted country", () => {
    const open = computePermissions({ level: "LEVEL_1", blocks: [], country: "DE" })
    expect(accessInfoOf(open, "DE")).toEqual(access())
    expect(accessInfoOf(computePermissions({ level: "LEVEL_1", blocks: [], country: "RU" }), "RU").accessToP2p).toBe(false)
    expect(p2pBlocked(accessInfoOf(computePermissions({ level: "LEVEL_0", blocks: [], country: "DE" }), "DE"))).toBe(true)
  })

  it("exchange is blocked on iOS or macOS at level 1 without accessToExchangesByCountry, not elsewhere", () => {
    const byCountry = access({ accessToExchangesByCountry: false })
    expect(exchangeBlocked({ platform: "ios", level: "LEVEL_1", access: byCountry })).toBe(true)
    expect(exchangeBlocked({ platform: "macos", level: "LEVEL_1", access: byCountry })).toBe(true)
    expect(exchangeBlocked({ platform: "android", level: "LEVEL_1", access: byCountry })).toBe(false)
    expect(exchangeBlocked({ platform: "ios", level: "LEVEL_2", access: byCountry })).toBe(false)
    expect(exchangeBlocked({ platform: "ios", level: "LEVEL_1", access: access() })).toBe(false)
    expect(exchangeBlocked({ platform: "android", level: "LEVEL_2", access: access({ accessToExchanges: false }) })).toBe(true)
  })

  it("stock trading: below level 1, or with both access flags; stock and ETF sends follow send, other actions follow stocks", () => {
    expect(stockTradingAvailable({ level: "LEVEL_0", access: access({ accessToExchanges: false }) })).toBe(true)
    expect(stockTradingAvailable({ level: "LEVEL_2", access: access() })).toBe(true)
    expect(stockTradingAvailable({ level: "LEVEL_2", access: access({ accessToExchangesByCountry: false }) })).toBe(false)
    expect(stockTradingAvailable({ level: "BLOCKED", access: access() })).toBe(false)
    expect(assetActionAllowed({ category: "stock", action: "send", canSend: true, stocksAvailable: false })).toBe(true)
    expect(assetActionAllowed({ category: "etf", action: "exchange", canSend: true, stocksAvailable: false })).toBe(false)
    expect(assetActionAllowed({ category: "etf", action: "send", canSend: false, stocksAvailable: true })).toBe(false)
    expect(assetActionAllowed({ category: "crypto", action: "exchange", canSend: false, stocksAvailable: false })).toBe(true)
  })
})
