import { describe, expect, it } from "vitest"
import type { ExpressRequest } from "../api.ts"
import { cryptosOf, currentPollMs, expressErrorKey, fiatsFor, isOpenRequest, needsOnboarding, pickPair } from "./expressView.ts"
import { errorKey } from "./market.ts"

const pairs = [
  { crypto: "USDT", fiat: "EUR" },
  { crypto: "USDT", fiat: "RUB" },
  { crypto: "TON", fiat: "EUR" },
] as const

const request = (status: ExpressRequest["status"]): ExpressRequest => ({
  id: 1,
  side: "PURCHASE",
  crypto: "USDT",
  fiat: "RUB",
  calculationType: "BY_FIAT",
  amount: "100000",
  status,
  failure: null,
  order: null,
  createdAt: "2025-03-10T15:00:00Z",
})

describe("express screen helpers (issue 21)", () => {
  it("the pickers list the pairs' cryptos once and each crypto's fiats", () => {
    expect(cryptosOf(pairs)).toEqual(["USDT", "TON"])
    expect(fiatsFor(pairs, "USDT")).toEqual(["EUR", "RUB"])
    expect(fiatsFor(pairs, "BTC")).toEqual([])
  })

  it("opens on the pair asked for, else on the user's currency, else the first; nothing without pairs", () => {
    expect(pickPair(pairs, { crypto: "USDT", fiat: "RUB" }, [])).toEqual({ crypto: "USDT", fiat: "RUB" })
    // A link to a pair nobody offers: the crypto kept, the user's recent fiat.
    expect(pickPair(pairs, { crypto: "USDT", fiat: "GBP" }, ["RUB", "USD"])).toEqual({ crypto: "USDT", fiat: "RUB" })
    expect(pickPair(pairs, { crypto: "BTC" }, [undefined, "EUR"])).toEqual({ crypto: "USDT", fiat: "EUR" })
    expect(pickPair(pairs, { crypto: "TON", fiat: "RUB" }, ["RUB"])).toEqual({ crypto: "TON", fiat: "EUR" })
    expect(pickPair([], { crypto: "USDT" }, ["RUB"])).toBeNull()
  })

  it("the onboarding comes first until hidden (once a session), and always before the market was opened", () => {
    expect(needsOnboarding({ initialized: true, hidden: false, seenThisSession: false })).toBe(true)
    expect(needsOnboarding({ initialized: true, hidden: false, seenThisSession: true })).toBe(false)
    expect(needsOnboarding({ initialized: true, hidden: true, seenThisSession: false })).toBe(false)
    expect(needsOnboarding({ initialized: false, hidden: true, seenThisSession: true })).toBe(true)
  })

  it("the current request is polled every 5 s while open, not once over", () => {
    expect(currentPollMs(request("SEARCHING"))).toBe(5_000)
    expect(currentPollMs(request("MATCHED"))).toBe(5_000)
    expect(currentPollMs(request("CLOSED"))).toBe(false)
    expect(currentPollMs(request("FAILED"))).toBe(false)
    expect(currentPollMs(null)).toBe(false)
    expect(isOpenRequest(undefined)).toBe(false)
  })

  it("express refusals read in express words; the rest as the market's", () => {
    expect(expressErrorKey("express_no_payment_details")).toBe("express.errors.express_no_payment_details")
    expect(expressErrorKey("price_moved")).toBe("express.errors.price_moved")
    expect(expressErrorKey("verification_limit")).toBe("market.errors.verification_limit")
    expect(expressErrorKey(undefined)).toBe("market.errors.generic")
    // The market's screens explain an express-only refusal too (a take from a shared link).
    expect(errorKey("express_only")).toBe("express.errors.express_only")
  })
})
