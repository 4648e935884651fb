/**
 * The boot paint's snapshot (decision 0007, reopen): what wallet main last showed as its total, kept
 * per user so that the HTML's inline script can paint it before any JavaScript loads on the next
 * open. Only the formatted text is kept (the persisted query cache holds the same figure); it goes
 * with the user's cache on logout and when another user signs in on the device.
 */
import { QUERY_CACHE_BUSTER } from "./queryTimes.ts"

export const BOOT_PAINT_KEY_PREFIX = "wallet:boot-paint:"

export interface BootPaintSnapshot {
  /** When main showed it (ms since epoch); the inline script ignores a snapshot older than the persisted cache's max age. */
  readonly t: number
  /** The total exactly as main formatted it. */
  readonly total: string
  /** The persisted cache's buster when it was written: after an update that changes it, the cache is dropped and so is this. */
  readonly b: string
}

const storageOf = (): Storage | undefined => {
  try {
    return typeof window === "undefined" ? undefined : window.localStorage
  } catch {
    return undefined
  }
}

/** Keeps what main shows now for the next open's first paint. */
export const writeBootPaint = (userId: number | string, total: string, now: number = Date.now(), storage: Storage | undefined = storageOf()): void => {
  try {
    storage?.setItem(`${BOOT_PAINT_KEY_PREFIX}${userId}`, JSON.stringify({ t: now, total, b: QUERY_CACHE_BUSTER } satisfies BootPaintSnapshot))
  } catch {
    // Storage full or unavailable: the next open paints the skeleton only.
  }
}

/** Removes the user's snapshot (`userId`), or every snapshot except `keep`'s. */
export const clearBootPaint = (storage: Storage | undefined, options: { readonly userId?: number | string; readonly keep?: number | string }): void => {
  if (!storage) return
  try {
    if (options.userId !== undefined) return storage.removeItem(`${BOOT_PAINT_KEY_PREFIX}${options.userId}`)
    const mine = options.keep === undefined ? undefined : `${BOOT_PAINT_KEY_PREFIX}${options.keep}`
    const stale: Array<string> = []
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i)
      if (key?.startsWith(BOOT_PAINT_KEY_PREFIX) && key !== mine) stale.push(key)
    }
    for (const key of stale) storage.removeItem(key)
  } catch {
    // Storage unavailable: nothing was kept either.
  }
}
