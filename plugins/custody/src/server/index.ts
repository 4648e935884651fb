/**
 * `@wallet/plugin-custody/server`: the custodial wallet's server module on the kernel's Ledger.
 */
import { defineServerPlugin, type ServerPlugin } from "@wallet/kernel-server"
import { chainPart } from "./chain/index.ts"

export const serverPlugin: ServerPlugin = defineServerPlugin({
  id: "custody",
  dependsOn: ["ledger"],
  migrations: [...chainPart.migrations],
  groups: [...chainPart.groups],
  ...(chainPart.groups.length > 0 ? { handlers: chainPart.handlers } : {}),
})
export default serverPlugin
