/** History rules (spec 2 §4 "Events in history", §9 page size). */
import type { AccountEvent } from "@wallet/kernel/chain"

export const HISTORY_PAGE_SIZE = 100

/** Hidden: in progress, or a single action of type Unknown. */
export const isHiddenEvent = (event: Pick<AccountEvent, "in_progress" | "actions">): boolean =>
  event.in_progress || (event.actions.length === 1 && event.actions.every((a) => a.type === "Unknown"))

export const visibleEvents = <E extends Pick<AccountEvent, "in_progress" | "actions">>(events: ReadonlyArray<E>): ReadonlyArray<E> =>
  events.filter((e) => !isHiddenEvent(e))
