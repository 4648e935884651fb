import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { I18n, LANGUAGES, languageFromCode, languageSuggestionFor, numberLocale, showLanguageTooltip, suggestedLanguageFor } from "./i18n.ts"

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
    // Hindi, Bengali and Traditional Chinese open in English until the suggestion is accepted.
    assert.deepStrictEqual(["hi", "bn", "zh-hant", "zh-TW"].map(languageFromCode), ["en", "en", "en", "en"])
  })

  it("ships en, ru, hi, bn and zh-TW", () => {
    assert.deepStrictEqual([...LANGUAGES], ["en", "ru", "hi", "bn", "zh-TW"])
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
    }).pipe(
      Effect.provide(I18n.layerTest("en", { shell: { en: { steps: [{ title: "First" }, { title: "Second" }], count: "{{n}} items, {{other}} stays" } } })),
    ),
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
            ru: {
              left_one: "Осталась {{count}} попытка",
              left_few: "Осталось {{count}} попытки",
              left_many: "Осталось {{count}} попыток",
              left_other: "Осталось {{count}} попытки",
            },
          },
        }),
      ),
    ),
  )
})

describe("I18n on i18next", () => {
  it.effect("loads zh-TW as its own language, never a 'zh' pack, with English key by key", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("s")
      assert.strictEqual(i18n.language(), "zh-TW")
      assert.strictEqual(i18n.t("s:title"), "設定")
      assert.strictEqual(i18n.t("s:only"), "English only")
      assert.strictEqual(i18n.t("s:left", { count: 2 }), "剩 2 天")
    }).pipe(
      Effect.provide(
        I18n.layerTest("zh-TW", {
          s: {
            en: { title: "Settings", only: "English only", left_one: "{{count}} day", left_other: "{{count}} days" },
            "zh-TW": { title: "設定", left_other: "剩 {{count}} 天" },
          },
        }),
      ),
    ),
  )

  it.effect("a Hindi pack that fails to load shows English, and a later language change still works", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("s")
      assert.strictEqual(i18n.t("s:title"), "Settings")
      yield* i18n.changeLanguage("bn")
      assert.strictEqual(i18n.t("s:title"), "সেটিংস")
    }).pipe(Effect.provide(I18n.layerTest("hi", { s: { en: { title: "Settings" }, bn: { title: "সেটিংস" } } }))),
  )

  it.effect("Russian 1 / 2 / 5 days take one / few / many", () =>
    Effect.gen(function* () {
      const i18n = yield* I18n
      yield* i18n.loadNamespace("d")
      assert.deepStrictEqual(
        [1, 2, 5, 21].map((count) => i18n.t("d:days", { count })),
        ["1 день", "2 дня", "5 дней", "21 день"],
      )
    }).pipe(
      Effect.provide(
        I18n.layerTest("ru", {
          d: {
            en: { days_one: "{{count}} day", days_other: "{{count}} days" },
            ru: { days_one: "{{count}} день", days_few: "{{count}} дня", days_many: "{{count}} дней", days_other: "{{count}} дня" },
          },
        }),
      ),
    ),
  )
})

describe("language hints", () => {
  it("suggests hi, bn and zh-TW once, and never to a user who chose a language", () => {
    assert.deepStrictEqual(
      ["hi", "bn-IN", "zh-hant", "ru", "en", "zh-hans"].map((code) => suggestedLanguageFor(code)),
      ["hi", "bn", "zh-TW", undefined, undefined, undefined],
    )
    assert.strictEqual(languageSuggestionFor({ telegramLanguage: "hi", chosenLanguage: undefined, shown: false }), "hi")
    assert.strictEqual(languageSuggestionFor({ telegramLanguage: "hi", chosenLanguage: undefined, shown: true }), undefined)
    assert.strictEqual(languageSuggestionFor({ telegramLanguage: "hi", chosenLanguage: "en", shown: false }), undefined)
  })

  it("shows the language tooltip only when the bot language is English, once", () => {
    assert.isTrue(showLanguageTooltip({ telegramLanguage: "en-GB", chosenLanguage: undefined, shown: false }))
    assert.isFalse(showLanguageTooltip({ telegramLanguage: "en", chosenLanguage: undefined, shown: true }))
    assert.isFalse(showLanguageTooltip({ telegramLanguage: "ru", chosenLanguage: undefined, shown: false }))
    assert.isFalse(showLanguageTooltip({ telegramLanguage: "en", chosenLanguage: "ru", shown: false }))
  })
})

describe("number formatting locale", () => {
  it("formats bn, hi and ar as en (spec 2 §9), other languages by their own rules", () => {
    const format = (language: string) => new Intl.NumberFormat(numberLocale(language), { style: "currency", currency: "USD" }).format(1234567.5)
    assert.deepStrictEqual(["bn", "hi", "ar", "hi-IN"].map(format), Array(4).fill("$1,234,567.50"))
    assert.notStrictEqual(new Intl.NumberFormat("bn", { style: "currency", currency: "USD" }).format(1234567.5), "$1,234,567.50")
    assert.strictEqual(numberLocale("ru"), "ru")
    assert.strictEqual(numberLocale("zh-TW"), "zh-TW")
  })
})
