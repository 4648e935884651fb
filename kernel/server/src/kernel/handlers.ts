/** Handlers of the kernel's API groups. */
import { Effect, Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentSession, Forbidden, KernelApi, NotFound, TelegramLaunch, Unauthorized, type AuthInitResponse, type ProfileLanguages } from "@wallet/kernel/api"
import { ServerConfig } from "../services.ts"
import { createSession, refreshSession, revokeSession } from "./sessions.ts"
import { featureFlagsFor, makeViewSettingsReader, saveViewSettings, viewSettingsFor } from "./settings.ts"
import { bucketsForAll } from "../operator/service.ts"
import { findUser, markOnboarded, setLanguage, setVisitorId, toCurrentUser, upsertFromTelegram, upsertProfile } from "./users.ts"

const currentUser = Effect.gen(function* () {
  const session = yield* CurrentSession
  const user = yield* Effect.orDie(findUser(session.userId))
  if (user === undefined) return yield* new Unauthorized({ code: "user_not_found", message: "The session's user no longer exists" })
  return user
})

const AuthLive = HttpApiBuilder.group(KernelApi, "auth", (handlers) =>
  handlers
    .handle("init", () =>
      Effect.gen(function* () {
        const launch = yield* TelegramLaunch
        const config = yield* ServerConfig
        const { user } = yield* Effect.orDie(upsertFromTelegram(launch.user))
        if (user.isBlocked) return yield* new Forbidden({ code: "content_unavailable", message: "The wallet is not available to this user" })
        const session = yield* Effect.orDie(createSession(user.id))
        return {
          ...session,
          webview_settings: {},
          user_id: user.id,
          is_new_user: user.isNew,
          local_currency: user.localCurrency,
          country_alpha2_ip: user.countryAlpha2Ip,
          country_alpha2_phone: user.countryAlpha2Phone,
          bot_username: config.botUsername,
          bot_is_blocked: user.botIsBlocked,
          // The buckets for all under the user's own (decision 0360).
          ab_tests: { ...(yield* Effect.orDie(bucketsForAll)), ...user.abTests },
          restriction_code: user.restrictionCode,
          subdivision_status: user.subdivisionStatus,
          permissions: user.permissions,
          is_custody_available: user.isCustodyAvailable,
          created_at: user.createdAt.toISOString(),
        } satisfies AuthInitResponse
      }),
    )
    .handle("refresh", ({ payload }) =>
      Effect.gen(function* () {
        const outcome = yield* Effect.orDie(refreshSession(payload.session_id, payload.refresh_token))
        if (outcome._tag === "Rejected") return yield* new Unauthorized({ code: outcome.code, message: outcome.message })
        return { ...outcome.session, webview_settings: {} }
      }),
    )
    .handle("logout", () =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        yield* Effect.orDie(revokeSession(session.sessionId))
      }),
    ),
)

const FeatureFlagsLive = HttpApiBuilder.group(KernelApi, "featureFlags", (handlers) =>
  handlers.handle("get", () =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      return yield* Effect.orDie(featureFlagsFor(session.userId))
    }),
  ),
)

const ViewSettingsLive = HttpApiBuilder.group(KernelApi, "viewSettings", (handlers) =>
  Effect.map(makeViewSettingsReader(), (reader) =>
    handlers
      .handle("get", () =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          const settings = yield* Effect.orDie(reader.run(session.userId))
          if (settings === undefined) return yield* new Unauthorized({ code: "user_not_found", message: "The session's user no longer exists" })
          return settings
        }),
      )
      .handle("save", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* currentUser
          if (!user.permissions.accessToSavingSettings) {
            return yield* new Forbidden({
              code: "permission_denied",
              message: "Saving view settings requires accessToSavingSettings",
              permission: "accessToSavingSettings",
            })
          }
          yield* Effect.orDie(saveViewSettings(user.id, payload))
          if (payload.changedUserFlags?.wallet_onboarding_finished === true && user.isNew) yield* Effect.orDie(markOnboarded(user.id))
          return yield* Effect.orDie(viewSettingsFor(user.id, user.isCustodyAvailable))
        }),
      ),
  ),
)

export const profileLanguages: ProfileLanguages = {
  available: [
    { code: "en", name: "English", translation: "English" },
    { code: "ru", name: "Russian", translation: "Русский" },
    { code: "hi", name: "Hindi", translation: "हिन्दी" },
    { code: "bn", name: "Bengali", translation: "বাংলা" },
    { code: "zh-TW", name: "Chinese (Traditional)", translation: "繁體中文" },
  ],
}

const ProfileLive = HttpApiBuilder.group(KernelApi, "profile", (handlers) =>
  handlers
    .handle("languages", () => Effect.succeed(profileLanguages))
    .handle("setLanguage", ({ payload }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        yield* Effect.orDie(setLanguage(session.userId, payload.language))
        return { language: payload.language }
      }),
    ),
)

const VisitorLive = HttpApiBuilder.group(KernelApi, "visitor", (handlers) =>
  handlers.handle("set", ({ payload }) =>
    Effect.gen(function* () {
      const session = yield* CurrentSession
      yield* Effect.orDie(setVisitorId(session.userId, payload.value))
    }),
  ),
)

const UsersLive = HttpApiBuilder.group(KernelApi, "users", (handlers) =>
  handlers
    .handle("me", () =>
      Effect.gen(function* () {
        const user = yield* currentUser
        if (user.profileCreatedAt === null) return yield* new NotFound({ code: "user_not_found", message: "No user record yet: upsert it" })
        return toCurrentUser(user)
      }),
    )
    .handle("upsertMe", ({ payload }) =>
      Effect.gen(function* () {
        const session = yield* CurrentSession
        const result = yield* Effect.orDie(upsertProfile(session.userId, payload.utmTags))
        if (result === undefined) return yield* new Unauthorized({ code: "user_not_found", message: "The session's user no longer exists" })
        return result.created ? { created: true as const, user: toCurrentUser(result.user) } : { created: false as const, user: toCurrentUser(result.user) }
      }),
    ),
)

export const kernelHandlers = Layer.mergeAll(AuthLive, FeatureFlagsLive, ViewSettingsLive, ProfileLive, VisitorLive, UsersLive)
