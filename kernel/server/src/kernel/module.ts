/** The kernel's own server module: its tables and its endpoints. */
import { AuthGroup, DevGroup, FeatureFlagsGroup, ProfileGroup, UsersGroup, ViewSettingsGroup, VisitorGroup } from "@wallet/kernel/api"
import { devHandlers } from "../dev/handlers.ts"
import { defineServerPlugin } from "../plugin.ts"
import { kernelHandlers } from "./handlers.ts"
import { kernelMigrations } from "./migrations.ts"

export const kernelModule = defineServerPlugin({
  id: "kernel",
  migrations: kernelMigrations,
  groups: [AuthGroup, FeatureFlagsGroup, ViewSettingsGroup, ProfileGroup, VisitorGroup, UsersGroup],
  handlers: kernelHandlers,
})

/** Dev-only endpoints; no tables of its own (it seeds kernel_users). */
export const devModule = defineServerPlugin({ id: "dev", groups: [DevGroup], handlers: devHandlers })
