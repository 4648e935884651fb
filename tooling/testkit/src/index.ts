/**
 * `@wallet/testkit` (decision 0150): what a plugin, in this repo or outside it, needs to test itself
 * against a host folder. Node side; the fake Telegram client for a browser page is
 * `@wallet/testkit/fake-telegram`.
 */
export { DEMO_USERS, DEMO_USER_IDS, DEMO_USER_PHONES, isDemoUserKind, type DemoUserKind, type TelegramUserLike } from "./demo-users.ts"
export { signInitData, tmaAuthorization, type InitDataUser, type SignInitDataOptions } from "./init-data.ts"
export { CHROMIUM, CHROMIUM_ARGS, launch, openAs, type LaunchedApp, type LaunchOptions, type LaunchTarget } from "./browser.ts"
export {
  buildHostApp,
  previewHost,
  startHost,
  startHostDevnet,
  startHostServer,
  type Host,
  type HostDevnetOptions,
  type HostProcess,
  type HostServerOptions,
  type HostServerProcess,
  type HostStack,
  type StartHostOptions,
} from "./host.ts"
export { THEMES, type ThemeName } from "./themes.ts"
