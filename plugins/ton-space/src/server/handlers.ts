/** Handlers of the addresses group (spec 2 §6: a signed-in user; §7 "Wallet addresses and backup"). */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { CurrentSession } from "@wallet/kernel/api"
import { TonSpaceApi, TonSpaceBadRequest, TonSpaceConflict, TonSpaceNotFound, type BackupRecord } from "../api.ts"
import { normaliseAddress } from "./address.ts"
import { findRow, markBackedUp, ownerOf, track, trackedOf, untrack } from "./addresses.ts"
import { BackupKeys } from "./backupKeys.ts"

const userId = Effect.gen(function* () {
  return (yield* CurrentSession).userId
})

const rawOf = (input: string) => {
  const normalised = normaliseAddress(input)
  return normalised === undefined
    ? Effect.fail(new TonSpaceBadRequest({ code: "invalid_address", message: `Invalid address: ${input}` }))
    : Effect.succeed(normalised)
}

const notYours = (raw: string) => new TonSpaceNotFound({ code: "address_not_found", message: `Address ${raw} is not one of your wallets` })
const ownedByAnother = (raw: string) => new TonSpaceConflict({ code: "address_owned_by_another_user", message: `Address ${raw} is tracked by another user` })

/** The user's key records with raw addresses, newest first (records with an unparsable address are skipped). */
const backupsOf = (user: number) =>
  Effect.gen(function* () {
    const keys = yield* BackupKeys
    const records = yield* keys.list(user)
    return [...records]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
      .flatMap((record): ReadonlyArray<BackupRecord> => {
        const normalised = normaliseAddress(record.address)
        return normalised === undefined ? [] : [{ address: normalised.raw, externalId: record.externalId }]
      })
  })

export const AddressesLive = HttpApiBuilder.group(TonSpaceApi, "tonSpaceAddresses", (handlers) =>
  handlers
    .handle("list", () =>
      Effect.gen(function* () {
        const user = yield* userId
        const [actives, backups] = yield* Effect.all([trackedOf(user), backupsOf(user)], { concurrency: 2 })
        return { actives, backups }
      }),
    )
    .handle("register", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const { raw } = yield* rawOf(payload.address)
        const outcome = yield* track(user, raw, { walletClass: payload.walletClass, network: payload.network, source: payload.source })
        if (outcome._tag === "owned-by-another") return yield* ownedByAnother(raw)
        return outcome.active
      }),
    )
    .handle("manualBackup", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const { raw } = yield* rawOf(payload.address)
        const active = yield* markBackedUp(user, raw)
        if (active === undefined) return yield* notYours(raw)
        return active
      }),
    )
    .handle("claim", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const { raw, testOnly } = yield* rawOf(payload.address)
        const existing = yield* findRow(raw)
        if (existing !== undefined && ownerOf(existing) !== user && existing.tracked) return yield* ownedByAnother(raw)
        const outcome = yield* track(user, raw, { walletClass: null, network: testOnly === true ? "testnet" : "mainnet", source: "claim" })
        if (outcome._tag === "owned-by-another") return yield* ownedByAnother(raw)
        return outcome.active
      }),
    )
    .handle("untrack", ({ payload }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const { raw } = yield* rawOf(payload.address)
        if (!(yield* untrack(user, raw))) return yield* notYours(raw)
      }),
    )
    .handle("externalId", ({ query }) =>
      Effect.gen(function* () {
        const user = yield* userId
        const { raw } = yield* rawOf(query.address)
        const found = (yield* backupsOf(user)).find((record) => record.address === raw)
        if (found === undefined) return yield* new TonSpaceNotFound({ code: "external_id_not_found", message: "externalId not found" })
        return found
      }),
    ),
)

export const makeTonSpaceHandlers = (backupKeys: Layer.Layer<BackupKeys, never, SqlClient.SqlClient> = BackupKeys.fromPasscode) =>
  AddressesLive.pipe(Layer.provide(backupKeys))
