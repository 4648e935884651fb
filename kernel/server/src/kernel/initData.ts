/**
 * Telegram initData (PROTOCOLS.md): secret = HMAC_SHA256(key "WebAppData", bot_token);
 * hash = hex HMAC_SHA256(secret, data_check_string) over all fields but `hash`, sorted, `k=v`
 * joined by newlines. Signature checks use @tma.js/init-data-node; expiry is checked here against
 * the server clock so tests can move time.
 */
import { createHash, createHmac, createPrivateKey, sign } from "node:crypto"
import { validate } from "@tma.js/init-data-node"
import { Result, Schema } from "effect"
import { isStorableText, isUserId, TelegramUser, type LaunchData, type UnauthorizedCode } from "@wallet/kernel/api"

export interface InitDataFailure {
  readonly code: Extract<UnauthorizedCode, "init_data_missing" | "init_data_invalid" | "init_data_expired" | "user_not_found">
  readonly message: string
}

export interface VerifiedInitData extends LaunchData {
  /** The initData `hash` field: unique per signed payload, the replay key. */
  readonly hash: string
}

const decodeUser = Schema.decodeUnknownResult(Schema.fromJsonString(TelegramUser))

/**
 * Why a signed Telegram user cannot open a session, or undefined: its id must be a positive safe
 * integer (a bigint column, and 0 or a negative id is no Telegram user), and its text fields must
 * be storable (no NUL, no unpaired surrogate; docs/decisions/0205).
 */
const userProblem = (user: TelegramUser, role: "user" | "receiver"): string | undefined => {
  if (!isUserId(user.id)) return `initData ${role} id must be a positive integer`
  for (const [field, value] of Object.entries(user)) {
    if (typeof value === "string" && !isStorableText(value)) return `initData ${role} ${field} is not valid text`
  }
  return undefined
}

/** Tolerated clock skew for an auth_date in the future. */
const FUTURE_SKEW_SECONDS = 60

export const verifyInitData = (
  initData: string,
  options: { readonly botToken: string; readonly maxAgeSeconds: number; readonly nowMs: number },
): Result.Result<VerifiedInitData, InitDataFailure> => {
  if (initData.trim() === "") {
    return Result.fail({ code: "init_data_missing", message: "Authorization: tma <initData> is required" })
  }
  try {
    // expiresIn 0: the library skips its own wall-clock expiry; we check auth_date below.
    validate(initData, options.botToken, { expiresIn: 0 })
  } catch (error) {
    const name = error instanceof Error ? error.name : ""
    const message =
      name === "SignatureMissingError"
        ? "initData has no hash"
        : name === "AuthDateInvalidError"
          ? "initData auth_date is invalid"
          : "initData signature does not match"
    return Result.fail({ code: "init_data_invalid", message })
  }
  const params = new URLSearchParams(initData)
  const hash = params.get("hash") ?? ""
  const authDateSeconds = Number(params.get("auth_date"))
  const nowSeconds = options.nowMs / 1000
  if (!Number.isFinite(authDateSeconds) || authDateSeconds > nowSeconds + FUTURE_SKEW_SECONDS) {
    return Result.fail({ code: "init_data_invalid", message: "initData auth_date lies in the future" })
  }
  if (authDateSeconds + options.maxAgeSeconds < nowSeconds) {
    return Result.fail({ code: "init_data_expired", message: `initData is older than ${options.maxAgeSeconds} s` })
  }
  const userJson = params.get("user")
  if (userJson === null) {
    return Result.fail({ code: "user_not_found", message: "initData carries no user" })
  }
  const user = decodeUser(userJson)
  if (Result.isFailure(user)) {
    return Result.fail({ code: "init_data_invalid", message: "initData user is malformed" })
  }
  const badUser = userProblem(user.success, "user")
  if (badUser !== undefined) return Result.fail({ code: "init_data_invalid", message: badUser })
  const receiverJson = params.get("receiver")
  let receiver: TelegramUser | undefined
  if (receiverJson !== null) {
    const decoded = decodeUser(receiverJson)
    if (Result.isFailure(decoded)) return Result.fail({ code: "init_data_invalid", message: "initData receiver is malformed" })
    const badReceiver = userProblem(decoded.success, "receiver")
    if (badReceiver !== undefined) return Result.fail({ code: "init_data_invalid", message: badReceiver })
    receiver = decoded.success
  }
  return Result.succeed({
    hash,
    user: user.success,
    receiver,
    authDate: new Date(authDateSeconds * 1000),
    queryId: params.get("query_id") ?? undefined,
    chatType: params.get("chat_type") ?? undefined,
    startParam: params.get("start_param") ?? undefined,
  })
}

export interface SignableInitData {
  readonly user: TelegramUser
  readonly authDate: Date
  readonly queryId?: string
  readonly chatType?: string
  readonly chatInstance?: string
  readonly startParam?: string
  readonly receiver?: TelegramUser
}

/**
 * The dev stand-in for Telegram's third-party Ed25519 key: derived from the bot token, so the
 * `signature` field is a real signature that a dev verifier can check with the matching public key.
 */
const devThirdPartyKey = (botToken: string) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), createHash("sha256").update(`third-party:${botToken}`).digest()]),
    format: "der",
    type: "pkcs8",
  })

/**
 * Signs initData exactly as Telegram does for a bot: the `signature` field (Ed25519 over
 * `<bot_id>:WebAppData\n<data_check_string>`, with a dev key here) and the HMAC `hash` over every
 * other field, `signature` included. Current clients reject initData without `signature`.
 */
export const signInitData = (data: SignableInitData, botToken: string): string => {
  const params = new URLSearchParams()
  params.set("user", JSON.stringify(data.user))
  if (data.receiver) params.set("receiver", JSON.stringify(data.receiver))
  if (data.queryId !== undefined) params.set("query_id", data.queryId)
  if (data.chatType !== undefined) params.set("chat_type", data.chatType)
  if (data.chatInstance !== undefined) params.set("chat_instance", data.chatInstance)
  if (data.startParam !== undefined) params.set("start_param", data.startParam)
  params.set("auth_date", String(Math.floor(data.authDate.getTime() / 1000)))
  const thirdPartyCheckString = [...params.entries()]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n")
  const botId = botToken.split(":")[0] ?? ""
  params.set("signature", sign(null, Buffer.from(`${botId}:WebAppData\n${thirdPartyCheckString}`), devThirdPartyKey(botToken)).toString("base64url"))
  const dataCheckString = [...params.entries()]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n")
  const secret = createHmac("sha256", "WebAppData").update(botToken).digest()
  params.set("hash", createHmac("sha256", secret).update(dataCheckString).digest("hex"))
  return params.toString()
}

/** The contact a user shares with the mini-app (Telegram's `getRequestedContact`): digits without the plus. */
export interface SignableContact {
  readonly user_id: number
  readonly phone_number: string
  readonly first_name: string
  readonly last_name?: string
}

/**
 * Signs a shared contact exactly as Telegram does (the answer of `getRequestedContact`, for the dev
 * Telegram client and tests): `contact=<json>&auth_date=<s>&hash=<hex>`, the hash the initData HMAC
 * over every other field, sorted, `k=v` joined by newlines.
 */
export const signContact = (contact: SignableContact, options: { readonly botToken: string; readonly authDateSeconds: number }): string => {
  const json = JSON.stringify({
    user_id: contact.user_id,
    phone_number: contact.phone_number,
    first_name: contact.first_name,
    ...(contact.last_name !== undefined ? { last_name: contact.last_name } : {}),
  })
  const params = new URLSearchParams()
  params.set("contact", json)
  params.set("auth_date", String(Math.floor(options.authDateSeconds)))
  const dataCheckString = [...params.entries()]
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n")
  const secret = createHmac("sha256", "WebAppData").update(options.botToken).digest()
  params.set("hash", createHmac("sha256", secret).update(dataCheckString).digest("hex"))
  return params.toString()
}
