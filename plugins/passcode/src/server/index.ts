/**
 * `@wallet/plugin-passcode/server`: the passcode plugin's server module. Needs the kernel's Outbox
 * (`outbox_messages`, composed by the server for every region).
 */
import { Layer } from "effect"
import { defineServerPlugin, UsdBalances, type ServerPlugin } from "@wallet/kernel-server"
import { DeviceKeyGroup, PasscodeGroup, RecoveryEmailGroup, SecurityGroup } from "../api.ts"
import type { UsdBalanceShape } from "./config.ts"
import { passcodeOperationGuard } from "./guard.ts"
import { makePasscodeHandlers } from "./handlers.ts"
import { passcodeMigrations } from "./migrations.ts"
import { operationTokenMigrations } from "./operationMigrations.ts"

export { PasscodeConfig, UsdBalance, defaultPasscodeConfig, readPasscodeConfig, type PasscodeServerConfig, type UsdBalanceShape } from "./config.ts"
export { OPERATION_TOKEN_HEADER, requireOperationToken, grantOperationToken, paramsHashOf } from "./operations.ts"
export { passcodeOperationGuard, tokenNeeded } from "./guard.ts"
export { passcodeMigrations } from "./migrations.ts"
export { deviceKeyRecordsOf } from "./deviceKeys.ts"

export interface PasscodeServerOptions {
  /** The user's USD balance in cents for the forced-passcode rule (default: none known). */
  readonly usdBalance?: UsdBalanceShape
}

export const makePasscodeServerPlugin = (options: PasscodeServerOptions = {}): ServerPlugin =>
  defineServerPlugin({
    id: "passcode",
    // The Outbox is a kernel module (composed by every server); listed for the composition check.
    dependsOn: ["outbox"],
    // Two lists (operation tokens: ids from 50, operationMigrations.ts), applied in id order.
    migrations: [...passcodeMigrations, ...operationTokenMigrations].sort((a, b) => a.id - b.id),
    groups: [PasscodeGroup, RecoveryEmailGroup, SecurityGroup, DeviceKeyGroup],
    handlers: makePasscodeHandlers(options.usdBalance),
    // The kernel's OperationGuard port: every module's money and security endpoints (docs/decisions/0550).
    operationGuard:
      options.usdBalance === undefined ? passcodeOperationGuard : passcodeOperationGuard.pipe(Layer.provide(Layer.succeed(UsdBalances, options.usdBalance))),
  })

export const serverPlugin: ServerPlugin = makePasscodeServerPlugin()
export default serverPlugin
