import { useEffect, useState } from "react"
import { MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Badge, Button, Cell, List, Section, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import type { ActiveAddress } from "../api.ts"
import { Hero } from "./common.tsx"
import { createWallet } from "./flows.ts"
import { NS } from "./hooks.ts"
import { loadTon, useTon } from "./ton.ts"
import styles from "./ton.module.css"
import { backupManualRoute, importMnemonicRoute } from "../routes.ts"

/**
 * The user's wallets the server knows (another device, a reinstall): each with its backup state;
 * choosing one opens the import (the words never leave a device). Hidden while loading or empty.
 */
function KnownWallets() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const ton = useTon()
  const [actives, setActives] = useState<ReadonlyArray<ActiveAddress>>([])
  useEffect(() => {
    let alive = true
    void import("./server-sync.ts")
      .then((m) => m.syncAddresses(kernel))
      .then((list) => alive && list && setActives(list.actives))
      .catch(() => undefined)
    return () => {
      alive = false
    }
  }, [kernel])
  if (actives.length === 0) return null
  const friendly = (active: ActiveAddress) => {
    const parsed = ton?.parseAddress(active.address)
    return parsed ? parsed.address.toString({ bounceable: false, urlSafe: true, testOnly: active.network === "testnet" }) : active.address
  }
  return (
    <List>
      <Section header={t("backupServer.knownTitle")} footer={t("backupServer.knownFooter")}>
        {actives.map((active) => {
          const address = friendly(active)
          return (
            <Cell
              key={active.address}
              title={shortAddress(address, 4, 4)}
              subtitle={active.walletClass ? t(`version.${active.walletClass}`) : t("backupServer.unknownVersion")}
              after={
                <Badge tone={active.manualBackupComplete ? "success" : "neutral"}>
                  {active.manualBackupComplete ? t("backupServer.backedUp") : t("backupServer.notBackedUp")}
                </Badge>
              }
              aria-label={t("backupServer.knownWallet", {
                address,
                state: active.manualBackupComplete ? t("backupServer.backedUp") : t("backupServer.notBackedUp"),
              })}
              chevron
              onClick={() => void go(importMnemonicRoute)}
            />
          )
        })}
      </Section>
    </List>
  )
}

/** /scw/onboarding (and /scw without a wallet): create a new wallet or import one. */
export default function OnboardingScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const [busy, setBusy] = useState(false)

  const create = async () => {
    if (busy) return
    setBusy(true)
    try {
      await createWallet(kernel)
      // The server tracks the address (no secret travels); a failure never blocks the backup.
      void import("./server-sync.ts").then((m) => m.syncAfterSetup(kernel, "create")).catch(() => undefined)
      void go(backupManualRoute, { replace: true })
    } catch {
      snackbar.show({ id: "ton-create-failed", text: t("errors.generic") })
      setBusy(false)
    }
  }

  return (
    <main className={styles.screen} onPointerEnter={() => void loadTon().catch(() => undefined)}>
      <Hero title={t("onboarding.title")} text={t("onboarding.text")} />
      <div className={styles.stack}>
        <Button look="secondary" stretched onClick={() => void go(importMnemonicRoute)}>
          {t("onboarding.import")}
        </Button>
      </div>
      <KnownWallets />
      <MainButton text={t("onboarding.create")} progress={busy} onClick={() => void create()} />
    </main>
  )
}
