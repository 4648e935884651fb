// JSON bodies several routes share: a jetton balance with its price, an NFT item, the risk of an
// emulated wallet message and an account's event of an emulation.
import type { Address } from "@ton/core"
import { type Devnet, TON_PRICE_USD } from "../devnet.ts"
import type { AccountEventJson } from "../model.ts"
import { raw } from "../util.ts"

export type Views = ReturnType<typeof makeViews>

export const makeViews = (devnet: Devnet) => {
  const jettonBalanceJson = async (owner: string, master: string, currencies: string[]) => {
    const bal = await devnet.jettonBalance(master, owner)
    const wallet = bal?.wallet ?? (await devnet.jettonWalletAddress(master, owner))
    const usd = devnet.priceUsd(master)
    const prices: Record<string, number> = {}
    for (const c of currencies.length ? currencies : ["usd"]) {
      const cur = c.toLowerCase()
      if (usd === undefined) continue
      const v = cur === "ton" || cur === "gram" ? usd / TON_PRICE_USD : devnet.fiatRate(cur) !== undefined ? usd * devnet.fiatRate(cur)! : undefined
      if (v !== undefined) prices[cur.toUpperCase()] = v
    }
    return {
      balance: (bal?.balance ?? 0n).toString(),
      price: { prices, diff_24h: Object.fromEntries(Object.keys(prices).map((k) => [k, "+0.00%"])) },
      wallet_address: { address: wallet, is_scam: false, is_wallet: false },
      jetton: devnet.jettonPreview(master),
    }
  }

  const nftJson = async (item: { address: string; index: bigint; owner?: string; collection?: string }) => {
    const name = devnet.meta.nftNames[item.address] ?? `Item #${item.index}`
    return {
      address: item.address,
      index: Number(item.index),
      ...(item.owner ? { owner: devnet.accountAddress(item.owner) } : {}),
      ...(item.collection
        ? {
            collection: {
              address: item.collection,
              name: devnet.meta.names[item.collection] ?? "Collection",
              description: "Demo NFT collection of the devnet",
            },
          }
        : {}),
      verified: item.collection === devnet.meta.collection,
      metadata: { name, image: `https://devnet.local/nft/${item.index}.png`, description: "A devnet demo NFT" },
      previews: [{ resolution: "100x100", url: `https://devnet.local/nft/${item.index}.png` }],
      approved_by: [],
      trust: item.collection === devnet.meta.collection ? "whitelist" : "none",
    }
  }

  const riskOf = async (em: Awaited<ReturnType<Devnet["emulate"]>>) => {
    let gram = 0n
    let all = false
    const jettons: unknown[] = []
    const nfts: unknown[] = []
    for (const { mode, message } of em.outActions) {
      if (mode & 128) all = true
      if (message.info.type === "internal") gram += message.info.value.coins
      const body = message.body
      const dest = message.info.type === "internal" ? raw(message.info.dest as Address) : undefined
      if (!body || !dest) continue
      const s = body.beginParse()
      if (s.remainingBits < 32) continue
      const op = s.loadUint(32)
      if (op === 0x0f8a7ea5) {
        s.loadUintBig(64)
        const amount = s.loadCoins()
        const info = await devnet.info(dest).catch(() => undefined)
        if (info?.jettonWallet)
          jettons.push({ quantity: amount.toString(), wallet_address: devnet.accountAddress(dest), jetton: devnet.jettonPreview(info.jettonWallet.master) })
      } else if (op === 0x5fcc3d14) {
        const item = await devnet.nftItem(dest)
        if (item) nfts.push(await nftJson(item))
      }
    }
    return { transfer_all_remaining_balance: all, gram: Number(gram), ton: Number(gram), jettons, nfts }
  }

  const accountEventOf = (em: Awaited<ReturnType<Devnet["emulate"]>>, account: string): AccountEventJson => {
    const e = em.record.accountEvents.find((x) => x.account === account)
    if (e) return e.event
    return {
      event_id: em.record.traceId,
      account: devnet.accountAddress(account),
      timestamp: em.record.utime,
      actions: [],
      is_scam: false,
      lt: em.record.lt,
      in_progress: false,
      extra: 0,
      progress: 1,
    }
  }

  return { jettonBalanceJson, nftJson, riskOf, accountEventOf }
}
