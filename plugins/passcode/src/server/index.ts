/**
 * `@wallet/plugin-passcode/server`: the passcode plugin's server module. Needs the kernel's Outbox
 * (`outbox_messages`, composed by the server for every region).
 */
import { defineServerPlugin, type ServerPlugin } from "@wallet/kernel-server";
import { DeviceKeyGroup, PasscodeGroup, RecoveryEmailGroup, SecurityGroup } from "../api.ts";
import type { UsdBalanceShape } from "./config.ts";
import { makePasscodeHandlers } from "./handlers.ts";
import { passcodeMigrations } from "./migrations.ts";

export { PasscodeConfig, UsdBalance, defaultPasscodeConfig, readPasscodeConfig, type PasscodeServerConfig, type UsdBalanceShape } from "./config.ts";
export { OPERATION_TOKEN_HEADER, requireOperationToken, grantOperationToken } from "./operations.ts";
export { passcodeMigrations } from "./migrations.ts";
export { deviceKeyRecordsOf } from "./deviceKeys.ts";

export interface PasscodeServerOptions {
  /** The user's USD balance in cents for the forced-passcode rule (default: none known). */
  readonly usdBalance?: UsdBalanceShape;
}

export const makePasscodeServerPlugin = (options: PasscodeServerOptions = {}): ServerPlugin =>
  defineServerPlugin({
    id: "passcode",
    // The Outbox is a kernel module (composed by every server); listed for the composition check.
    dependsOn: ["outbox"],
    migrations: passcodeMigrations,
    groups: [PasscodeGroup, RecoveryEmailGroup, SecurityGroup, DeviceKeyGroup],
    handlers: makePasscodeHandlers(options.usdBalance),
  });

export const serverPlugin: ServerPlugin = makePasscodeServerPlugin();
export default serverPlugin;
