import { Check, definePlugin } from "@wallet/kernel"
import * as R from "./routes.ts"

export * from "./routes.ts"

const screen = (id: string, path: string, search: Check.Check<any>, component: () => Promise<{ default: unknown }>) => ({
  id,
  parent: "wallet",
  path,
  search,
  component,
})

/**
 * Buying and selling crypto for fiat (issue 23, spec 1 §2): purchase and sell options, on-ramp and
 * off-ramp through MoonPay and Mercuryo, the provider transaction status page, purchase success and
 * failed. The server module is `@wallet/plugin-ramp/server`, the contract `./api`.
 */
export const rampPlugin = definePlugin({
  id: "ramp",
  version: "0.1.0",
  kernel: "^0.1.0",
  dependsOn: ["custody"],
  routes: [
    screen("purchase-options", "/purchase-options", R.PurchaseOptionsSearch, () => import("./client/PurchaseOptionsScreen.tsx")),
    screen("sell-options", "/sell-options", R.SellOptionsSearch, () => import("./client/SellOptionsScreen.tsx")),
    screen("onramp-amount", "/assets/ramp/onramp/onramp-amount", R.OnrampAmountSearch, () => import("./client/OnrampAmountScreen.tsx")),
    screen("onramp-provider", "/assets/ramp/onramp/onramp-provider", R.PayloadSearch, () => import("./client/OnrampProviderScreen.tsx")),
    screen("offramp-choose-asset", "/assets/ramp/offramp/choose-asset", R.OfframpChooseAssetSearch, () => import("./client/SellOptionsScreen.tsx")),
    screen("offramp-amount", "/assets/ramp/offramp/offramp-amount", R.OfframpAmountSearch, () => import("./client/OfframpAmountScreen.tsx")),
    screen("offramp-provider", "/assets/ramp/offramp/offramp-provider", R.PayloadSearch, () => import("./client/OfframpProviderScreen.tsx")),
    screen("offramp-success", "/assets/ramp/offramp/offramp-success", R.PayloadSearch, () => import("./client/OfframpSuccessScreen.tsx")),
    screen("trx-status", "/assets/ramp/asterium-trx-status", R.TrxStatusSearch, () => import("./client/TrxStatusScreen.tsx")),
    screen("purchase-success", "/purchase-success", R.PurchaseSuccessSearch, () => import("./client/PurchaseResultScreen.tsx")),
    screen("purchase-failed", "/purchase-failed", R.PurchaseFailedSearch, () => import("./client/PurchaseFailedScreen.tsx")),
  ],
  // Spec 1 §2 start params: `asset_purchase` opens the purchase options (custody's `addcrypto` opens receive).
  deepLinks: [{ prefix: "asset_purchase", exact: true, to: "/purchase-options" }],
  analytics: {
    events: [
      { name: "ramp.widget_opened", description: "A provider widget was opened (`provider`, `direction`, `currency`, `fiat`)" },
      { name: "ramp.refused", description: "Creating a purchase or sale was refused (`code`)" },
    ],
  },
  // The region config the server reads too (`pluginConfig.ramp`, server/config.ts).
  config: Check.struct(
    {
      providers: Check.optional(
        Check.struct({
          moonpay: Check.optional(
            Check.struct({
              widgetUrl: Check.string,
              sellWidgetUrl: Check.string,
              apiUrl: Check.string,
              publishableKey: Check.string,
              secretKey: Check.string,
              webhookKey: Check.string,
            }),
          ),
          mercuryo: Check.optional(
            Check.struct({ widgetUrl: Check.string, apiUrl: Check.string, widgetId: Check.string, secret: Check.string, signKey: Check.string }),
          ),
        }),
      ),
      sandbox: Check.optional(Check.boolean),
      returnOrigins: Check.optional(Check.array(Check.string)),
    },
    { exact: true },
  ),
  i18n: {
    namespace: "ramp",
    bundles: {
      en: () => import("./i18n/en.json"),
      ru: () => import("./i18n/ru.json"),
      hi: () => import("./i18n/hi.json"),
      bn: () => import("./i18n/bn.json"),
      "zh-TW": () => import("./i18n/zh-TW.json"),
    },
  },
})

export default rampPlugin
