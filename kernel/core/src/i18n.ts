import i18next, { type i18n as I18next } from "i18next"
import { Context, Effect, Layer } from "effect"
import type { I18nBundle, Language, Lazy } from "./manifest.ts"

export const LANGUAGES: ReadonlyArray<Language> = ["en", "ru"]
export const DEFAULT_LANGUAGE: Language = "en"

export const isLanguage = (value: unknown): value is Language => value === "en" || value === "ru"

/** Telegram's language_code ("ru", "en-US", "uk") to a supported language. */
export const languageFromCode = (code: string | undefined): Language => {
  const base = code?.toLowerCase().split(/[-_]/)[0]
  return isLanguage(base) ? base : DEFAULT_LANGUAGE
}

export type NamespaceBundles = Readonly<Record<Language, Lazy<{ readonly default: I18nBundle }>>>

/**
 * Translations: one i18next namespace per plugin, loaded on demand; Russian falls back to English
 * key by key, and a language pack that fails to load falls back to the default language.
 */
export class I18n extends Context.Service<
  I18n,
  {
    readonly instance: I18next
    readonly language: () => Language
    readonly changeLanguage: (language: Language) => Effect.Effect<void>
    /** Loads a namespace for the current language (and English, the fallback). */
    readonly loadNamespace: (namespace: string) => Effect.Effect<void>
    readonly t: (key: string, options?: Record<string, unknown>) => string
  }
>()("wallet/I18n") {
  static readonly make = (options: {
    readonly language: Language
    readonly namespaces: ReadonlyMap<string, { readonly bundles: NamespaceBundles }>
    readonly onProblem?: (message: string, cause?: unknown) => void
  }) =>
    Effect.gen(function* () {
      const instance = i18next.createInstance()
      yield* Effect.promise(() =>
        instance.init({
          lng: options.language,
          fallbackLng: DEFAULT_LANGUAGE,
          supportedLngs: [...LANGUAGES],
          ns: [],
          resources: {},
          interpolation: { escapeValue: false },
          returnNull: false,
        }),
      )
      const loaded = new Set<string>()
      const loadBundle = (namespace: string, language: Language) =>
        Effect.gen(function* () {
          const id = `${language}/${namespace}`
          if (loaded.has(id)) return true
          const bundles = options.namespaces.get(namespace)?.bundles
          if (!bundles) {
            options.onProblem?.(`unknown i18n namespace '${namespace}'`)
            return false
          }
          const bundle = yield* Effect.tryPromise(() => bundles[language]()).pipe(
            Effect.map((m) => m.default),
            Effect.catch((cause) => Effect.sync(() => {
              options.onProblem?.(`language pack ${id} failed to load`, cause)
              return undefined
            })),
          )
          if (!bundle) return false
          instance.addResourceBundle(language, namespace, bundle, true, true)
          loaded.add(id)
          return true
        })
      const loadNamespace = (namespace: string) =>
        Effect.gen(function* () {
          const language = instance.language as Language
          yield* loadBundle(namespace, DEFAULT_LANGUAGE)
          if (language !== DEFAULT_LANGUAGE) yield* loadBundle(namespace, language)
        })
      return I18n.of({
        instance,
        language: () => instance.language as Language,
        changeLanguage: (language) =>
          Effect.gen(function* () {
            const namespaces = [...new Set([...loaded].map((id) => id.split("/")[1]!))]
            yield* Effect.promise(() => instance.changeLanguage(language))
            for (const namespace of namespaces) yield* loadNamespace(namespace)
          }),
        loadNamespace,
        t: (key, opts) => String(instance.t(key, opts as never)),
      })
    })

  static readonly layer = (options: Parameters<typeof I18n.make>[0]) => Layer.effect(I18n, I18n.make(options))

  /** Test layer: bundles given inline. */
  static readonly layerTest = (language: Language, bundles: Record<string, Partial<Record<Language, I18nBundle>>>) =>
    I18n.layer({
      language,
      namespaces: new Map(
        Object.entries(bundles).map(([ns, byLanguage]) => [
          ns,
          {
            bundles: {
              en: async () => ({ default: byLanguage.en ?? {} }),
              ru: async () => {
                if (!byLanguage.ru) throw new Error(`no ru bundle for ${ns}`)
                return { default: byLanguage.ru }
              },
            },
          },
        ]),
      ),
    })
}
