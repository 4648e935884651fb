// Where bridge messages go when the app runs in a frame (decision 0207). Re-exported by ../telegram.ts.
/** Telegram Web's origins: web.telegram.org serves the K and A clients; webk / webz are their older hosts. */
export const TELEGRAM_WEB_ORIGINS: ReadonlyArray<string> = ["https://web.telegram.org", "https://webk.telegram.org", "https://webz.telegram.org"]
/** Where bridge messages go when the parent frame's origin is unknown or not allowed. */
export const DEFAULT_TELEGRAM_TARGET_ORIGIN = "https://web.telegram.org"

/** What the page knows about the frame that hosts it. */
export interface ParentFrameFacts {
  /** This page's own origin (the dev launch page hosts the app from it). */
  readonly ownOrigin: string
  /** `location.ancestorOrigins` (Chromium, Safari): the parent's origin first. */
  readonly ancestorOrigins?: ArrayLike<string> | undefined
  /** `document.referrer`: the page that opened this frame (browsers without ancestorOrigins). */
  readonly referrer?: string | undefined
}

const originOf = (value: string | undefined): string | undefined => {
  if (!value) return undefined
  try {
    const origin = new URL(value).origin
    return origin === "null" ? undefined : origin
  } catch {
    return undefined
  }
}

/**
 * The origin the mini-app posts its bridge messages to when it runs in a frame (Telegram Web), never
 * `*` (decision 0207): the parent frame's origin when it is allowed (Telegram Web's origins, this
 * page's own origin, which is the dev launch page's, and `extraOrigins`), else Telegram Web's. A
 * parent on any other origin then receives nothing, so it cannot read biometry tokens, storage values
 * or anything else the app tells Telegram.
 */
export const telegramTargetOrigin = (facts: ParentFrameFacts, extraOrigins: ReadonlyArray<string> = []): string => {
  const allowed = new Set(
    [...TELEGRAM_WEB_ORIGINS, originOf(facts.ownOrigin), ...extraOrigins.map((o) => originOf(o.trim()))].filter((o): o is string => o !== undefined),
  )
  const parent = originOf(facts.ancestorOrigins?.[0]) ?? originOf(facts.referrer)
  return parent !== undefined && allowed.has(parent) ? parent : DEFAULT_TELEGRAM_TARGET_ORIGIN
}

/** The facts of the running page (the real bridge's default). */
export const parentFrameFacts = (): ParentFrameFacts => ({
  ownOrigin: window.location.origin,
  ancestorOrigins: window.location.ancestorOrigins,
  referrer: document.referrer,
})

let targetOrigin = DEFAULT_TELEGRAM_TARGET_ORIGIN

/**
 * Where the app posts bridge messages when it runs in an iframe (Telegram Web: https://web.telegram.org);
 * see `telegramTargetOrigin`. Refuses `*` and anything that is not an origin. The SDK chunk hands it
 * to the SDK (`setTargetOrigin`) when it connects, and again on every later change.
 */
export const setTelegramTargetOrigin = (origin: string) => {
  const exact = originOf(origin)
  if (exact === undefined || !/^https?:\/\/[^/?#*\s]+\/?$/i.test(origin)) throw new Error(`The Telegram target origin must be an origin, not "${origin}"`)
  targetOrigin = exact
  for (const listener of targetOriginListeners) listener(exact)
}

const targetOriginListeners = new Set<(origin: string) => void>()
/** The SDK chunk follows the target origin with this. */
export const onTelegramTargetOrigin = (listener: (origin: string) => void): (() => void) => {
  targetOriginListeners.add(listener)
  return () => void targetOriginListeners.delete(listener)
}

/** The origin bridge messages go to now (tests and diagnostics). */
export const telegramTargetOriginInUse = (): string => targetOrigin
