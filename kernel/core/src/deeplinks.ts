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

const fill = (template: string, captures: ReadonlyArray<string>, rest: string): string =>
  template.replace(/\{(\d+|rest)\}/g, (_, key: string) => (key === "rest" ? rest : (captures[Number(key)] ?? "")))

const fillAll = (record: Readonly<Record<string, string>> | undefined, captures: ReadonlyArray<string>, rest: string) => {
  const out: Record<string, string> = {}
  for (const [key, template] of Object.entries(record ?? {})) {
    const value = fill(template, captures, rest)
    if (value !== "") out[key] = value
  }
  return out
}

/**
 * Finds the handler for a start param: an exact handler first, else the longest matching prefix.
 * An unclaimed or malformed param is `not-found` (the host goes to main and logs it).
 */
export function resolveStartParam(table: ReadonlyArray<ComposedDeepLink>, startParam: string): DeepLinkTarget {
  if (!START_PARAM_PATTERN.test(startParam) || startParam === "") return { kind: "not-found", startParam }
  const exact = table.find((link) => link.exact && link.prefix === startParam)
  const handler = exact ?? table.filter((link) => !link.exact && startParam.startsWith(link.prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0]
  if (!handler) return { kind: "not-found", startParam }
  const rest = startParam.slice(handler.prefix.length).replace(/^_/, "")
  const captures = rest === "" ? [] : rest.split("_")
  const params = fillAll(handler.params, captures, rest)
  let to = handler.to
  for (const [key, value] of Object.entries(params)) to = to.replace(`$${key}`, encodeURIComponent(value))
  return {
    kind: "route",
    pluginId: handler.pluginId,
    prefix: handler.prefix,
    to,
    params,
    search: fillAll(handler.search, captures, rest),
  }
}
