import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { I18n, languageFromCode } from "./i18n.ts"

const bundles = {
  settings: { en: { title: "Settings", language: "Language", hello: "Hello, {{name}}" }, ru: { title: "Настройки" } },
  wallet: { en: { balance: "Balance" } },
}

describe("I18n", () => {
  it.effect("translates in Russian and falls back to English key by key", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("settings")
      assert.strictEqual(i18n.t("settings:title"), "Настройки")
      assert.strictEqual(i18n.t("settings:language"), "Language")
      assert.strictEqual(i18n.t("settings:hello", { name: "Ann" }), "Hello, Ann")
    }).pipe(Effect.provide(I18n.layerTest("ru", bundles))),
  )

  it.effect("falls back to English when the Russian pack fails to load", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("wallet")
      assert.strictEqual(i18n.t("wallet:balance"), "Balance")
    }).pipe(Effect.provide(I18n.layerTest("ru", bundles))),
  )

  it.effect("switches language and reloads the namespaces already in use", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("settings")
      assert.strictEqual(i18n.t("settings:title"), "Settings")
      yield* i18n.changeLanguage("ru")
      assert.strictEqual(i18n.language(), "ru")
      assert.strictEqual(i18n.t("settings:title"), "Настройки")
    }).pipe(Effect.provide(I18n.layerTest("en", bundles))),
  )

  it("maps Telegram language codes to supported languages", () => {
    assert.deepStrictEqual(["ru", "en-US", "uk", undefined, "RU"].map(languageFromCode), ["ru", "en", "en", "en", "ru"])
  })
})

describe("I18n lookups", () => {
  it.effect("resolves dotted and array paths, shows the key when missing, and notifies subscribers", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      let notified = 0
      i18n.subscribe(() => notified++)
      yield* i18n.loadNamespace("shell")
      assert.strictEqual(i18n.t("shell:steps.1.title"), "Second")
      assert.strictEqual(i18n.t("shell:missing.key"), "missing.key")
      assert.strictEqual(i18n.t("shell:count", { n: 3 }), "3 items, {{other}} stays")
      assert.isAbove(notified, 0)
    }).pipe(Effect.provide(I18n.layerTest("en", { shell: { en: { steps: [{ title: "First" }, { title: "Second" }], count: "{{n}} items, {{other}} stays" } } }))),
  )
})

describe("I18n plurals", () => {
  it.effect("picks the plural form for count by the language's rules, falling back to _other", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("p")
      assert.strictEqual(i18n.t("p:left", { count: 1 }), "Осталась 1 попытка")
      assert.strictEqual(i18n.t("p:left", { count: 3 }), "Осталось 3 попытки")
      assert.strictEqual(i18n.t("p:left", { count: 5 }), "Осталось 5 попыток")
      yield* i18n.changeLanguage("en")
      assert.strictEqual(i18n.t("p:left", { count: 1 }), "1 attempt left")
      assert.strictEqual(i18n.t("p:left", { count: 2 }), "2 attempts left")
    }).pipe(
      Effect.provide(
        I18n.layerTest("ru", {
          p: {
            en: { left_one: "{{count}} attempt left", left_other: "{{count}} attempts left" },
            ru: { left_one: "Осталась {{count}} попытка", left_few: "Осталось {{count}} попытки", left_many: "Осталось {{count}} попыток", left_other: "Осталось {{count}} попытки" },
          },
        }),
      ),
    ),
  )
})
