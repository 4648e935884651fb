import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Check from "./check.ts"
import { defineStore, memoryBackend, Storage, STORAGE_PREFIX } from "./storage.ts"

const SettingsV2 = Check.struct({ languageCode: Check.string, fiatCurrency: Check.string })
const settings = defineStore({
  key: "settings",
  version: 2,
  schema: SettingsV2,
  initial: { languageCode: "en", fiatCurrency: "USD" },
  // v1 stored { lang, fiat }: renamed in v2.
  migrations: { 2: (v1: any) => ({ languageCode: v1.lang, fiatCurrency: v1.fiat }) },
})

describe("Storage", () => {
  it.effect("returns the initial value when nothing is stored, and round-trips a save", () =>
    Effect.gen(function* () {
      const backend = memoryBackend()
      const storage = Storage.make(backend)
      assert.deepStrictEqual(yield* storage.load(settings), { languageCode: "en", fiatCurrency: "USD" })
      yield* storage.save(settings, { languageCode: "ru", fiatCurrency: "EUR" })
      assert.deepStrictEqual(JSON.parse(backend.entries.get(`${STORAGE_PREFIX}settings`)!), { v: 2, data: { languageCode: "ru", fiatCurrency: "EUR" } })
      assert.deepStrictEqual(yield* storage.load(settings), { languageCode: "ru", fiatCurrency: "EUR" })
    }),
  )

  it.effect("migrates data stored by an older version", () =>
    Effect.gen(function* () {
      const storage = Storage.make(memoryBackend({ [`${STORAGE_PREFIX}settings`]: JSON.stringify({ v: 1, data: { lang: "ru", fiat: "RUB" } }) }))
      assert.deepStrictEqual(yield* storage.load(settings), { languageCode: "ru", fiatCurrency: "RUB" })
    }),
  )

  it.effect("falls back to the initial value on corrupt, newer or mis-shaped data and reports it", () =>
    Effect.gen(function* () {
      const problems: string[] = []
      for (const raw of ["{oops", JSON.stringify({ v: 9, data: {} }), JSON.stringify({ v: 2, data: { languageCode: 1 } })]) {
        const storage = Storage.make(memoryBackend({ [`${STORAGE_PREFIX}settings`]: raw }), (m) => problems.push(m))
        assert.deepStrictEqual(yield* storage.load(settings), settings.initial)
      }
      assert.deepStrictEqual(problems, [
        "store 'settings' holds invalid JSON",
        "store 'settings' has unknown version 9",
        "store 'settings' does not match its schema",
      ])
    }),
  )

  it.effect("reports a failed write as StorageWriteError and keeps the old value", () =>
    Effect.gen(function* () {
      const problems: string[] = []
      const backend = memoryBackend()
      const storage = Storage.make(
        {
          ...backend,
          setItem: () => {
            throw new Error("QuotaExceededError")
          },
        },
        (m) => problems.push(m),
      )
      const error = yield* storage.update(settings, (s) => ({ ...s, fiatCurrency: "EUR" })).pipe(Effect.flip)
      assert.strictEqual(error._tag, "StorageWriteError")
      assert.deepStrictEqual(problems, ["failed to write store 'settings'"])
      assert.deepStrictEqual(yield* storage.load(settings), settings.initial)
    }),
  )
})
