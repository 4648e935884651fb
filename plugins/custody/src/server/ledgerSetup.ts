/** The custody currencies and system accounts in the Ledger (idempotent; run at boot). */
import { Effect } from "effect"
import { Ledger, userOwner, type AccountRef } from "@wallet/kernel-server/ledger"
import { CURRENCIES } from "../currencies.ts"

/** Per currency: frozen balances are holds into it (never posted; released by a void). */
export const FROZEN_OWNER = "system:frozen"
/** Counterparts of demo and reward movements (may go negative: money from the platform). */
export const REWARDS_OWNER = "system:rewards"
export const EXCHANGE_OWNER = "system:exchange"

export const userAccount = (userId: number, currency: string): AccountRef => ({ owner: userOwner(userId), currency })

export const defineCustodyCurrencies = Effect.gen(function* () {
  const ledger = yield* Ledger
  for (const currency of CURRENCIES) {
    yield* ledger.defineCurrency({ code: currency.code, decimals: currency.decimals })
    yield* ledger.openAccount({ owner: FROZEN_OWNER, currency: currency.code })
    yield* ledger.openAccount({ owner: REWARDS_OWNER, currency: currency.code }, { allowNegative: true })
    yield* ledger.openAccount({ owner: EXCHANGE_OWNER, currency: currency.code }, { allowNegative: true })
  }
})
