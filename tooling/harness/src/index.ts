export { FakeTelegram, type BridgeCall, type ButtonState, type FakeTelegramOptions, type Insets } from "./fake-telegram.ts"
export { THEMES, type ThemeName } from "./themes.ts"
