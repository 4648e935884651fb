import type { TabEntry } from "./manifest.ts"

/** Languages written right to left (spec 1 §2: no tab tooltip for them). */
const RTL = new Set(["ar", "fa", "he", "ur"])

/**
 * Which tab tooltip to show now, if any (spec 1 §2): only on wallet main, only for a non-RTL language,
 * at most once per session, the highest priority first (earn before trade).
 */
export const tabTooltipToShow = <T extends Pick<TabEntry, "id" | "tooltip">>(input: {
  readonly tabs: ReadonlyArray<T>
  readonly pathname: string
  readonly language: string
  readonly shownThisSession: boolean
}): T | undefined => {
  if (input.shownThisSession || input.pathname !== "/main" || RTL.has(input.language.split("-")[0]!)) return undefined
  return input.tabs.filter((tab) => tab.tooltip).sort((a, b) => b.tooltip!.priority - a.tooltip!.priority)[0]
}
