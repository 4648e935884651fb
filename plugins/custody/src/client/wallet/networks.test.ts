import { describe, expect, it } from "vitest"
import { afterAssetChosen, networkName } from "./networks.ts"

describe("networks and choose asset", () => {
  it("names networks with their display names", () => {
    expect(["ton", "tron", "ethereum", "solana", "bitcoin"].map(networkName)).toEqual(["TON", "Tron (TRC20)", "Ethereum (ERC20)", "Solana (SOL)", "Bitcoin"])
  })

  it("goes to choose network only when the asset has several", () => {
    expect(afterAssetChosen("receive", { currency: "USDT", networks: ["ton", "tron"] })).toEqual({
      to: "/choose-network/$type/$assetCurrency",
      params: { type: "receive", assetCurrency: "USDT" },
    })
    expect(afterAssetChosen("receive", { currency: "TON", networks: ["ton"] })).toEqual({
      to: "/receive",
      search: { assetCurrency: "TON", assetNetwork: "ton" },
    })
    expect(afterAssetChosen("send", { currency: "BTC", networks: ["bitcoin"] })).toEqual({ to: "/assets/send", search: { assetCurrency: "BTC" } })
  })
})
