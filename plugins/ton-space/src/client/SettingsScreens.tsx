import { useEffect, useState } from "react"
import { Effect } from "effect"
import { Icon, MainButton, useGo, useHideTabBar, useKernel, usePasscode, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import type { Network } from "../core/assets.ts"
import { canChangeVersion, listedWalletClasses, type WalletClass } from "../core/versions.ts"
import { WordGrid } from "./common.tsx"
import { loadAccount } from "./data.ts"
import { logout, vaultErrorText, wordsForOperation } from "./flows.ts"
import { chainFor, NS, useWallet } from "./hooks.ts"
import { secrets } from "./secrets.ts"
import { useTon } from "./ton.ts"
import styles from "./ton.module.css"
import { importMnemonicRoute, mainRoute, settingsLogoutRoute, settingsRecoveryRoute, settingsVersionNetworkRoute } from "../routes.ts"

/** /scw/settings: the TON space's own settings list. */
export function ScwSettingsScreen() {
  const t = useT(NS)
  const go = useGo()
  useHideTabBar()
  const entries = [
    { ref: settingsRecoveryRoute, label: t("settings.recovery"), icon: "wallet" },
    { ref: settingsVersionNetworkRoute, label: t("settings.versionNetwork"), icon: "globe" },
    { ref: settingsLogoutRoute, label: t("settings.logout"), icon: "alert" },
  ]
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("settings.title")}</h1>
      <List>
        <Section>
          {entries.map((e) => (
            <Cell key={e.ref.path} before={<Icon name={e.icon} />} title={e.label} chevron onClick={() => void go(e.ref)} />
          ))}
        </Section>
      </List>
    </main>
  )
}

/** /scw/settings/recovery: the 24 words, only after the passcode. */
export function RecoveryScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const passcode = usePasscode()
  const go = useGo()
  const [state] = useWallet()
  const [words, setWords] = useState<ReadonlyArray<string> | null>(null)
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string>()
  useHideTabBar()
  const reveal = async () => {
    if (busy || !state.address) return
    setBusy(true)
    setFailure(undefined)
    let held: Awaited<ReturnType<typeof wordsForOperation>>
    try {
      held = await wordsForOperation(kernel, passcode, "show_mnemonic", state.address)
    } catch (error) {
      // The vault did not open: the spec's text (decision 0530); anything else the generic one.
      setFailure(vaultErrorText(t, error) ?? t("errors.generic"))
      return
    } finally {
      setBusy(false)
    }
    if (held === "cancelled") return
    if (!held) {
      void go(importMnemonicRoute)
      return
    }
    setWords(held)
  }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("recovery.title")}</h1>
      <p className={styles.lead}>{t("recovery.text")}</p>
      {words ? <WordGrid words={words} /> : null}
      {failure && (
        <p className={styles.error} role="alert" style={{ margin: "0 var(--wk-space-4) var(--wk-space-4)" }}>
          {failure}
        </p>
      )}
      {!words && <MainButton text={t("recovery.show")} progress={busy} onClick={() => void reveal()} />}
    </main>
  )
}

/** /scw/settings/logout: the spec's five steps after a confirmation. */
export function LogoutScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const [state] = useWallet()
  const [busy, setBusy] = useState(false)
  useHideTabBar()
  const run = async () => {
    if (busy) return
    setBusy(true)
    try {
      const address = state.address
      await logout(kernel, {
        deleteServerRecords: async () => {
          // The server stops tracking the address (its backup flag stays for a later import), then the device keys go.
          if (address) await import("./server-sync.ts").then((m) => m.untrackOnLogout(kernel, address))
          await import("./vault.ts").then((m) => m.deleteServerRecords(kernel))
        },
        clearVault: () => import("./vault.ts").then((m) => m.clearVault(kernel)),
        navigate: () => void go(mainRoute, { replace: true }),
      })
      snackbar.show({ id: "ton-logged-out", text: t("logout.done") })
    } catch {
      snackbar.show({ id: "ton-logout-failed", text: t("errors.generic") })
    } finally {
      setBusy(false)
    }
  }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("logout.title")}</h1>
      <p className={styles.lead}>{t("logout.text", { address: state.address ? shortAddress(state.address) : "" })}</p>
      <MainButton look="destructive" text={t("logout.confirm")} progress={busy} onClick={() => void run()} />
    </main>
  )
}

/** /scw/settings/version-network: wallet version (W5R1 default) and network (testnet after a confirmation). */
export function VersionNetworkScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const snackbar = useSnackbar()
  const ton = useTon()
  const [state, update] = useWallet()
  useHideTabBar()
  const publicKey = state.publicKey ? Buffer.from(state.publicKey, "hex") : undefined
  const v5Beta = ton && publicKey ? ton.identityOf(publicKey, "v5beta", state.walletNetwork).raw : undefined
  // Spec 2 §3: the v5 beta is listed only when its TON balance is above 0 (probed here, per network).
  const [v5BetaBalance, setV5BetaBalance] = useState<{ readonly raw: string; readonly balance: bigint } | undefined>(undefined)
  useEffect(() => {
    if (v5Beta === undefined) return
    let alive = true
    void Effect.runPromise(
      loadAccount(chainFor(kernel, state.walletNetwork), v5Beta).pipe(
        Effect.map((account) => account.balance),
        Effect.orElseSucceed(() => 0n),
      ),
    ).then((balance) => alive && setV5BetaBalance({ raw: v5Beta, balance }))
    return () => {
      alive = false
    }
  }, [kernel, v5Beta, state.walletNetwork])
  const listed = listedWalletClasses(state.walletClass, v5BetaBalance?.raw === v5Beta ? v5BetaBalance?.balance : undefined)
  const changeable = canChangeVersion(state.walletClass)

  const rederive = (network: Network, walletClass: WalletClass) => {
    if (!ton || !publicKey) return
    const identity = ton.identityOf(publicKey, walletClass, network)
    const previous = state.address
    update((s) => ({ ...s, walletNetwork: network, walletClass, address: identity.address, raw: identity.raw }))
    // The held words belong to the key, not one address: follow the address.
    const words = previous ? secrets.wordsFor(previous) : null
    if (words) secrets.hold(identity.address, words)
    // The server tracks the address in use too (same key: registered like an import).
    void import("./server-sync.ts").then((m) => m.syncAfterSetup(kernel, "import")).catch(() => undefined)
  }

  const chooseNetwork = async (network: Network) => {
    if (network === state.walletNetwork) return
    if (network === "testnet") {
      const choice = await kernel.telegram.popup({
        title: t("network.testnetTitle"),
        message: t("network.testnetText"),
        buttons: [
          { id: "cancel", type: "cancel" },
          { id: "ok", type: "ok" },
        ],
      })
      if (choice !== "ok") return
      rederive("testnet", state.walletClass)
    } else {
      rederive("mainnet", state.walletClass)
      snackbar.show({ id: "ton-mainnet", text: t("network.backToMainnet") })
    }
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("settings.versionNetwork")}</h1>
      <List>
        <Section header={t("network.title")}>
          <div role="radiogroup" aria-label={t("network.title")}>
            {(["mainnet", "testnet"] as const).map((network) => (
              <Cell
                key={network}
                role="radio"
                aria-checked={state.walletNetwork === network}
                title={t(`network.${network}`)}
                after={state.walletNetwork === network ? <Icon name="check" /> : undefined}
                onClick={() => void chooseNetwork(network)}
              />
            ))}
          </div>
        </Section>
        <Section header={t("version.title")} footer={changeable ? t("version.footer") : t("versions.changeUnavailable")}>
          {!ton || !publicKey ? (
            <Placeholder title={t("version.loading")} />
          ) : (
            <div role="radiogroup" aria-label={t("version.title")}>
              {listed.map((walletClass) => {
                const identity = ton.identityOf(publicKey, walletClass, state.walletNetwork)
                return (
                  <Cell
                    key={walletClass}
                    role="radio"
                    aria-checked={state.walletClass === walletClass}
                    title={t(`version.${walletClass}`)}
                    subtitle={shortAddress(identity.address)}
                    after={state.walletClass === walletClass ? <Icon name="check" /> : undefined}
                    onClick={() => rederive(state.walletNetwork, walletClass)}
                  />
                )
              })}
            </div>
          )}
        </Section>
      </List>
    </main>
  )
}
