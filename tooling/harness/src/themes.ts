// Telegram-like theme params: in the published test kit (decision 0150).
export { THEMES, type ThemeName } from "@wallet/testkit/fake-telegram"
