/**
 * The kit for a host folder other than this checkout lives in the published `@wallet/testkit`
 * (decision 0150); re-exported here so the repo's tests keep their imports. `DEV_BOT_TOKEN` is this
 * checkout's constant (the kit reads a host's token from its server's output instead).
 */
export { DEV_BOT_TOKEN } from "@wallet/host-server"
export {
  buildHostApp,
  DEMO_USER_IDS,
  DEMO_USER_PHONES,
  previewHost,
  startHost,
  startHostDevnet,
  startHostServer,
  type Host,
  type HostProcess,
  type HostServerProcess,
  type HostStack,
} from "@wallet/testkit"
