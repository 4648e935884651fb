/**
 * Signed Telegram initData for API-only tests (no browser): `signInitData(user, botToken)` gives the
 * string a client sends as `Authorization: tma <initData>` to `POST /api/auth/init`. Signed with
 * `@tma.js/init-data-node` (the library the kernel server validates with). The bot token of a dev
 * host server is `server.botToken` of `startHostServer` (it prints it), or the one you passed it.
 */
import { randomUUID } from "node:crypto"
import { sign } from "@tma.js/init-data-node"
import { DEMO_USERS, isDemoUserKind, type DemoUserKind, type TelegramUserLike } from "./demo-users.ts"

export interface SignInitDataOptions {
  /** Default now. The server refuses initData older than its max age (a day by default) or from the future. */
  readonly authDate?: Date
  /** Default a fresh random id: the server refuses a replayed initData (same hash). */
  readonly queryId?: string
  readonly startParam?: string
  /** Default "sender". */
  readonly chatType?: string
  /** The user's `language_code` (default "en"). */
  readonly language?: string
}

/** A demo user by kind, a Telegram id (a user named "Test"), or a whole Telegram user. */
export type InitDataUser = DemoUserKind | number | TelegramUserLike

const userOf = (user: InitDataUser, language: string): TelegramUserLike => {
  if (isDemoUserKind(user)) return { ...DEMO_USERS[user], language_code: language }
  if (typeof user === "number") return { id: user, first_name: "Test", language_code: language }
  return { language_code: language, ...user }
}

export const signInitData = (user: InitDataUser, botToken: string, options: SignInitDataOptions = {}): string => {
  const signed = userOf(user, options.language ?? "en")
  return sign(
    {
      user: { ...signed },
      query_id: options.queryId ?? `AA${randomUUID().replaceAll("-", "")}`,
      chat_type: options.chatType ?? "sender",
      ...(options.startParam !== undefined ? { start_param: options.startParam } : {}),
    },
    botToken,
    options.authDate ?? new Date(),
  )
}

/** `Authorization` header value for `POST /api/auth/init`. */
export const tmaAuthorization = (initData: string): string => `tma ${initData}`
