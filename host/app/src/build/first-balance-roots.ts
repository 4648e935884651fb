/**
 * The first balance's module list, in one place for two users: the build preloads these modules (and
 * their CSS) from the HTML (boot-paint.ts, decision 0007), and the size bench counts their bytes
 * (tooling/bench/suites/app-size.ts, decision 0009). A renamed module fails the bench's rename check
 * and the test beside this file.
 */
/** One module the first balance needs: its chunk, the chunk's static imports and their CSS are fetched. */
export interface FirstBalanceRoot {
  /** The module's path from the repo root (`{lang}` is the launch language). */
  readonly module: string
  readonly why: string
}

/**
 * The modules a signed-in user with balances loads before wallet main shows the total, besides the
 * entry and its static imports (and whatever the document preloads, which the suite adds): the
 * dynamic imports that path needs, listed explicitly. Not listed: work that starts beside or after
 * the first screen and races the balance (the typed client with its Effect Schema chunk for
 * `users/me`, the Telegram SDK (requested once the first data has settled), the analytics sender, the passcode plugin's runtime and strings, TonConnect's
 * listener, about 110 kB together): on a loaded machine or an older tree they arrive before the
 * balance, and the cross-check names them; the first-load bench's byte line shows what a throttled
 * load really fetched. `app-size` checks the list against a real throttled Chromium load.
 */
export const FIRST_BALANCE_ROOTS: ReadonlyArray<FirstBalanceRoot> = [
  { module: "host/app/src/i18n/{lang}.json", why: "the shell's strings in the launch language" },
  { module: "plugins/home/src/client/MainScreen.tsx", why: "wallet main's route" },
  { module: "plugins/home/src/i18n/{lang}.json", why: "wallet main's strings" },
  { module: "plugins/home/src/client/wallet/MainContent.tsx", why: "the asset rows and actions (they render with the total)" },
  { module: "plugins/custody/src/i18n/wallet.{lang}.json", why: "custody's strings (main's actions)" },
  { module: "plugins/custody/src/i18n/send.{lang}.json", why: "custody's strings (the same bundle)" },
  { module: "plugins/custody/src/client/main/actions.ts", why: "custody's action availability on main" },
  { module: "plugins/custody/src/client/main/TermsBanner.tsx", why: "custody's banner slot on main" },
  { module: "plugins/passcode/src/client/MainBanner.tsx", why: "passcode's banner slot on main" },
  { module: "plugins/settings/src/i18n/{lang}.json", why: "settings' strings (its top-bar button)" },
]

export const rootsFor = (language: string, roots: ReadonlyArray<FirstBalanceRoot> = FIRST_BALANCE_ROOTS): ReadonlyArray<FirstBalanceRoot> =>
  roots.map((r) => ({ ...r, module: r.module.replaceAll("{lang}", language) }))

/**
 * The first screen's requests on a cold start, as the boot script sends them with the access token of
 * its sign-in (decision 0010), from the origin: wallet main's start query (custody's accounts and
 * frozen balances in the device's fiat, `{fiat}`) and the view settings beside them. They must be the
 * exact requests the app then makes, or it sends its own (first-balance-roots.test.ts compares them).
 */
export const FIRST_BALANCE_REQUESTS: ReadonlyArray<string> = [
  "/api/custody/accounts?fiatCurrency={fiat}",
  "/api/custody/frozen-balances?fiatCurrency={fiat}",
  "/api/view-settings",
]
