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

type Bundle = Readonly<Record<string, unknown>>

/** Looks a dotted key up in a bundle ("onboarding.steps.0.title"). */
const lookup = (bundle: Bundle | undefined, key: string): string | undefined => {
  let node: unknown = bundle
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object") return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return typeof node === "string" ? node : undefined
}

/** `{{name}}` placeholders, as the bundles write them. */
const interpolate = (text: string, values: Record<string, unknown> | undefined) =>
  values ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match)) : text

/**
 * Translations: one namespace per plugin, loaded on demand; Russian falls back to English key by
 * key, and a language pack that fails to load falls back to the default language. Keys are
 * `namespace:dotted.path`; values interpolate `{{name}}`; a `count` picks the plural form
 * (`key_one`, `key_few`, `key_many`, `key_other`). A missing key shows the key itself.
 */
export class I18n extends Context.Service<
  I18n,
  {
    readonly language: () => Language
    readonly changeLanguage: (language: Language) => Effect.Effect<void>
    /** Loads a namespace for the current language (and English, the fallback). */
    readonly loadNamespace: (namespace: string) => Effect.Effect<void>
    readonly t: (key: string, options?: Record<string, unknown>) => string
    /** Called after a language change or a newly loaded bundle; returns the unsubscribe function. */
    readonly subscribe: (listener: () => void) => () => void
  }
>()("wallet/I18n") {
  static readonly make = (options: {
    readonly language: Language
    readonly namespaces: ReadonlyMap<string, { readonly bundles: NamespaceBundles }>
    readonly onProblem?: (message: string, cause?: unknown) => void
  }) =>
    Effect.sync(() => {
      let language = options.language
      const bundles = new Map<string, Bundle>()
      const listeners = new Set<() => void>()
      const notify = () => listeners.forEach((listener) => listener())

      const loadBundle = (namespace: string, lang: Language) =>
        Effect.gen(function* () {
          const id = `${lang}/${namespace}`
          if (bundles.has(id)) return
          const source = options.namespaces.get(namespace)?.bundles
          if (!source) return options.onProblem?.(`unknown i18n namespace '${namespace}'`)
          const bundle = yield* Effect.tryPromise(() => source[lang]()).pipe(
            Effect.map((m) => m.default),
            Effect.catch((cause) => Effect.sync(() => options.onProblem?.(`language pack ${id} failed to load`, cause))),
          )
          if (!bundle) return
          bundles.set(id, bundle)
          notify()
        })
      const loadNamespace = (namespace: string) =>
        Effect.gen(function* () {
          yield* loadBundle(namespace, DEFAULT_LANGUAGE)
          if (language !== DEFAULT_LANGUAGE) yield* loadBundle(namespace, language)
        })
      // Plural forms follow i18next's suffixes (`key_one`, `key_few`, `key_many`, `key_other`).
      const pluralOf = (lang: Language, path: string, count: unknown) =>
        typeof count === "number" ? [`${path}_${new Intl.PluralRules(lang).select(count)}`, `${path}_other`, path] : [path]
      const find = (lang: Language, namespace: string, path: string, count: unknown) => {
        for (const candidate of pluralOf(lang, path, count)) {
          const text = lookup(bundles.get(`${lang}/${namespace}`), candidate)
          if (text !== undefined) return text
        }
        return undefined
      }
      const t = (key: string, values?: Record<string, unknown>) => {
        const split = key.indexOf(":")
        const namespace = split >= 0 ? key.slice(0, split) : ""
        const path = split >= 0 ? key.slice(split + 1) : key
        const text = find(language, namespace, path, values?.count) ?? find(DEFAULT_LANGUAGE, namespace, path, values?.count)
        return text === undefined ? path : interpolate(text, values)
      }
      return I18n.of({
        language: () => language,
        changeLanguage: (next) =>
          Effect.gen(function* () {
            const used = [...new Set([...bundles.keys()].map((id) => id.split("/")[1]!))]
            language = next
            for (const namespace of used) yield* loadNamespace(namespace)
            notify()
          }),
        loadNamespace,
        t,
        subscribe: (listener) => {
          listeners.add(listener)
          return () => void listeners.delete(listener)
        },
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
