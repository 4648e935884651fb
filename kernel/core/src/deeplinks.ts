import type { ComposedDeepLink } from "./compose.ts"

/** Telegram start params: `[\w-]{0,512}` (PROTOCOLS.md). */
export const START_PARAM_PATTERN = /^[\w-]{0,512}$/

export type DeepLinkTarget =
  | {
      readonly kind: "route"
      readonly pluginId: string
      readonly prefix: string
      readonly to: string
      readonly params: Readonly<Record<string, string>>
      readonly search: Readonly<Record<string, string>>
    }
  | { readonly kind: "not-found"; readonly startParam: string }

type Captures = { readonly list: ReadonlyArray<string>; readonly named: Readonly<Record<string, string>> }

const fill = (template: string, captures: Captures, rest: string): string =>
  template.replace(/\{(\w+)\}/g, (_, key: string) =>
    key === "rest" ? rest : /^\d+$/.test(key) ? (captures.list[Number(key)] ?? "") : (captures.named[key] ?? ""),
  )

const fillAll = (record: Readonly<Record<string, string>> | undefined, captures: Captures, rest: string) => {
  const out: Record<string, string> = {}
  for (const [key, template] of Object.entries(record ?? {})) {
    const value = fill(template, captures, rest)
    if (value !== "") out[key] = value
  }
  return out
}

/** The captures of a handler for `rest`, or undefined when its pattern refuses it. */
const captureOf = (link: ComposedDeepLink, rest: string): Captures | undefined => {
  const list = rest === "" ? [] : rest.split("_")
  if (link.pattern === undefined) return { list, named: {} }
  const match = new RegExp(`^(?:${link.pattern})$`).exec(rest)
  return match ? { list, named: { ...match.groups } } : undefined
}

/**
 * Finds the handler for a start param: an exact handler first, else the longest matching prefix
 * whose `pattern` (if any) accepts the rest; a refused pattern falls through to the next one.
 * An unclaimed or malformed param is `not-found` (the host goes to main and logs it).
 */
export function resolveStartParam(table: ReadonlyArray<ComposedDeepLink>, startParam: string): DeepLinkTarget {
  if (!START_PARAM_PATTERN.test(startParam) || startParam === "") return { kind: "not-found", startParam }
  const candidates = [
    ...table.filter((link) => link.exact && link.prefix === startParam),
    ...table.filter((link) => !link.exact && startParam.startsWith(link.prefix)).sort((a, b) => b.prefix.length - a.prefix.length),
  ]
  for (const handler of candidates) {
    const rest = startParam.slice(handler.prefix.length).replace(/^_/, "")
    const captures = captureOf(handler, rest)
    if (!captures) continue
    const params = fillAll(handler.params, captures, rest)
    let to = handler.to
    for (const [key, value] of Object.entries(params)) to = to.replace(`$${key}`, encodeURIComponent(value))
    // A route parameter left unfilled (an empty capture) would open a broken path.
    if (/\$\w/.test(to)) continue
    return { kind: "route", pluginId: handler.pluginId, prefix: handler.prefix, to, params, search: fillAll(handler.search, captures, rest) }
  }
  return { kind: "not-found", startParam }
}
