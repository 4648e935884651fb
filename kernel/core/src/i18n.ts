import { Context, Effect, Layer } from "effect"
import { createInstance, type BackendModule, type i18n as I18nextInstance } from "i18next"
import * as Check from "./check.ts"
import type { I18nBundle, Language, Lazy } from "./manifest.ts"
import { defineStore } from "./storage.ts"

/** Languages the app ships, in the order the language list shows them. */
export const LANGUAGES: ReadonlyArray<Language> = ["en", "ru", "hi", "bn", "zh-TW"]
export const DEFAULT_LANGUAGE: Language = "en"

/** Each language in its own name, as the language list shows it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  en: "English",
  ru: "Русский",
  hi: "हिन्दी",
  bn: "বাংলা",
  "zh-TW": "繁體中文",
}

/** Spec 3 §2.3: the languages a language-suggestion dialog is offered for. */
export const SUGGESTED_LANGUAGES: ReadonlyArray<Language> = ["hi", "bn", "zh-TW"]

export const isLanguage = (value: unknown): value is Language => typeof value === "string" && (LANGUAGES as ReadonlyArray<string>).includes(value)

/** Telegram's language_code ("zh-hant", "zh-TW", "hi-IN") to a shipped language, or undefined. */
export const shippedLanguageOf = (code: string | undefined): Language | undefined => {
  const lower = code?.toLowerCase().replace("_", "-")
  if (!lower) return undefined
  if (lower === "zh-tw" || lower === "zh-hant" || lower.startsWith("zh-hant-") || lower === "zh-hk" || lower === "zh-mo") return "zh-TW"
  const base = lower.split("-")[0]
  return isLanguage(base) ? base : undefined
}

/**
 * The language the app opens in for a Telegram language_code when the user chose none: Russian or
 * English. Hindi, Bengali and Traditional Chinese are offered by the suggestion dialog instead
 * (spec 3 §2.3), so the first screen stays in English until the user accepts.
 */
export const languageFromCode = (code: string | undefined): Language => (shippedLanguageOf(code) === "ru" ? "ru" : DEFAULT_LANGUAGE)

/** The language to suggest once for a Telegram language_code (hi, bn or zh-TW), if any. */
export const suggestedLanguageFor = (code: string | undefined): Language | undefined => {
  const language = shippedLanguageOf(code)
  return language && SUGGESTED_LANGUAGES.includes(language) ? language : undefined
}

/**
 * One-off language hints, kept on the device (spec 3 §2.3, spec 1 §4): the suggestion dialog and the
 * language tooltip each show once and never again on this device.
 */
export const LanguageHintsStore = defineStore({
  key: "language-hints",
  version: 1,
  schema: Check.struct({ suggestionShown: Check.boolean, tooltipShown: Check.boolean }),
  initial: { suggestionShown: false, tooltipShown: false },
})

/** Spec 1 §4: the language tooltip shows for 2000 ms. */
export const LANGUAGE_TOOLTIP_MS = 2000

/**
 * Whether to offer the language-suggestion dialog: once, when Telegram's language is hi, bn or zh-TW
 * and the user has not picked a language of their own (nor already the suggested one).
 */
export const languageSuggestionFor = (input: {
  readonly telegramLanguage: string | undefined
  readonly chosenLanguage: Language | undefined
  readonly shown: boolean
}): Language | undefined => {
  if (input.shown || input.chosenLanguage !== undefined) return undefined
  return suggestedLanguageFor(input.telegramLanguage)
}

/**
 * Whether to show the language tooltip (spec 1 §4): only when the bot language (Telegram's language
 * for this launch) is English, once per device, and not to a user who already chose a language.
 */
export const showLanguageTooltip = (input: {
  readonly telegramLanguage: string | undefined
  readonly chosenLanguage: Language | undefined
  readonly shown: boolean
}): boolean => !input.shown && input.chosenLanguage === undefined && (input.telegramLanguage ?? "").toLowerCase().split(/[-_]/)[0] === "en"

/** Spec 2 §9: these locales format numbers and money as English (Latin digits, Western grouping). */
const FORMATTED_AS_ENGLISH = new Set(["bn", "hi", "ar"])

/** The locale for `Intl` number and money formatting in a language: bn, hi and ar format as en. */
export const numberLocale = (language: string): string => (FORMATTED_AS_ENGLISH.has(language.toLowerCase().split(/[-_]/)[0]!) ? "en" : language)

/** English is always there; other languages are optional (a missing pack reads as English). */
export type NamespaceBundles = Readonly<{ en: Lazy<{ readonly default: I18nBundle }> } & Partial<Record<Language, Lazy<{ readonly default: I18nBundle }>>>>

interface I18nShape {
  readonly language: () => Language
  readonly changeLanguage: (language: Language) => Effect.Effect<void>
  /** Loads a namespace for the current language (and English, the fallback). */
  readonly loadNamespace: (namespace: string) => Effect.Effect<void>
  readonly t: (key: string, options?: Record<string, unknown>) => string
  /** Called after a language change or a newly loaded bundle; returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void
  /** The i18next instance behind the service (react-i18next's `useTranslation` takes it). */
  readonly instance: I18nextInstance
}

/**
 * An i18next backend that reads the manifests' lazy bundle imports: one namespace per plugin, one
 * chunk per language. A pack that fails to load is reported and not retried; i18next then shows the
 * fallback language (English) key by key.
 */
const manifestBackend = (
  namespaces: ReadonlyMap<string, { readonly bundles: NamespaceBundles }>,
  onProblem: ((message: string, cause?: unknown) => void) | undefined,
): BackendModule & { readonly callbackApi: true } => ({
  type: "backend",
  callbackApi: true,
  init: () => undefined,
  read: (language, namespace, callback) => {
    const source = namespaces.get(namespace)?.bundles
    if (!source) {
      onProblem?.(`unknown i18n namespace '${namespace}'`)
      return callback(null, {})
    }
    const load = source[language as Language]
    if (!load) return callback(null, {})
    load().then(
      (module) => callback(null, module.default as never),
      (cause: unknown) => {
        onProblem?.(`language pack ${language}/${namespace} failed to load`, cause)
        callback(new Error(`language pack ${language}/${namespace} failed to load`), false)
      },
    )
  },
})

/**
 * Translations on i18next (decision 0310): one namespace per plugin, loaded on demand from the
 * manifests' bundles; every language falls back to English key by key, and a language pack that
 * fails to load shows the default language. Keys are `namespace:dotted.path`; values interpolate
 * `{{name}}`; a `count` picks the plural form by the language's rules (`key_one`, `key_few`,
 * `key_many`, `key_other`). A missing key shows the key itself.
 */
export class I18n extends Context.Service<I18n, I18nShape>()("wallet/I18n") {
  static readonly make = (options: {
    readonly language: Language
    readonly namespaces: ReadonlyMap<string, { readonly bundles: NamespaceBundles }>
    readonly onProblem?: (message: string, cause?: unknown) => void
  }) =>
    Effect.promise(async () => {
      const instance = createInstance()
      await instance.use(manifestBackend(options.namespaces, options.onProblem)).init({
        lng: options.language,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: [...LANGUAGES],
        // "zh-TW" is a language of its own here: never load a "zh" pack for it.
        load: "currentOnly",
        ns: [],
        defaultNS: false,
        fallbackNS: false,
        initAsync: false,
        returnNull: false,
        showSupportNotice: false,
        interpolation: {
          // React escapes; a placeholder without a value stays visible.
          escapeValue: false,
          missingInterpolationHandler: (_text: string, match: RegExpExecArray) => match[0],
        },
        react: { useSuspense: false, bindI18nStore: "added" },
      } as never)
      const t = (key: string, values?: Record<string, unknown>) => instance.t(key, values as never) as unknown as string
      return I18n.of({
        instance,
        language: () => (isLanguage(instance.language) ? instance.language : DEFAULT_LANGUAGE),
        changeLanguage: (next) =>
          Effect.promise(() =>
            instance.changeLanguage(next).then(
              () => undefined,
              () => undefined,
            ),
          ),
        loadNamespace: (namespace) =>
          Effect.promise(() =>
            instance.loadNamespaces(namespace).then(
              () => undefined,
              () => undefined,
            ),
          ),
        t,
        subscribe: (listener) => {
          const onChange = () => listener()
          instance.on("languageChanged", onChange)
          instance.on("loaded", onChange)
          instance.store.on("added", onChange)
          return () => {
            instance.off("languageChanged", onChange)
            instance.off("loaded", onChange)
            instance.store.off("added", onChange)
          }
        },
      })
    })

  static readonly layer = (options: Parameters<typeof I18n.make>[0]) => Layer.effect(I18n, I18n.make(options))

  /** Test layer: bundles given inline; a language without a bundle fails to load, like a lost chunk. */
  static readonly layerTest = (language: Language, bundles: Record<string, Partial<Record<Language, I18nBundle>>>) =>
    I18n.layer({
      language,
      namespaces: new Map(
        Object.entries(bundles).map(([ns, byLanguage]) => [
          ns,
          {
            bundles: Object.fromEntries(
              LANGUAGES.map((lang) => [
                lang,
                async () => {
                  const bundle = byLanguage[lang] ?? (lang === DEFAULT_LANGUAGE ? {} : undefined)
                  if (!bundle) throw new Error(`no ${lang} bundle for ${ns}`)
                  return { default: bundle }
                },
              ]),
            ) as unknown as NamespaceBundles,
          },
        ]),
      ),
    })
}
