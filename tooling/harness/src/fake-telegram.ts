// The fake Telegram client lives in the published test kit (decision 0150); re-exported for the repo's imports.
export { FakeTelegram, type BridgeCall, type ButtonState, type FakeTelegramOptions, type Insets } from "@wallet/testkit/fake-telegram"
