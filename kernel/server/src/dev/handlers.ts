/** The dev module: demo users and the launch signer, only in a dev server. */
import { Effect, Redacted } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { DevApi, NotFound } from "@wallet/kernel/api"
import { DevResets, ServerConfig } from "../services.ts"
import { demoUsers, resetUser } from "./demoUsers.ts"
import { buildLaunch } from "./launch.ts"

export const devHandlers = HttpApiBuilder.group(DevApi, "dev", (handlers) =>
  handlers
    .handle("demoUsers", () => Effect.succeed(demoUsers.map(({ id, kind, name, description }) => ({ id, kind, name, description }))))
    .handle("launch", ({ payload }) =>
      Effect.gen(function* () {
        const config = yield* ServerConfig
        const demo = demoUsers.find((user) => user.id === payload.userId)
        if (demo === undefined) return yield* new NotFound({ code: "not_found", message: `No demo user ${payload.userId}` })
        if (demo.kind === "new") {
          yield* Effect.orDie(resetUser(demo.id))
          // Each module forgets its own state of the user too (verification, …).
          const resets = yield* DevResets
          for (const hook of resets.hooks) yield* Effect.orDie(hook(demo.id))
        }
        return buildLaunch(demo, payload, Redacted.value(config.botToken), config.now())
      }),
    ),
)
