export { FakeTelegram, type BridgeCall, type ButtonState, type FakeTelegramOptions } from "./fake-telegram.ts"
export { THEMES, type ThemeName } from "./themes.ts"
