import { useState } from "react"
import { MainButton, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { TextField } from "@wallet/kernel-react/ui"
import { useFinishSetup } from "./BackupScreens.tsx"
import { Hero, splitWords } from "./common.tsx"
import { ADDRESS_MISMATCH, ImportError, importWallet, INVALID_MNEMONIC } from "./flows.ts"
import { NS, useWallet } from "./hooks.ts"
import styles from "./ton.module.css"
import { importSuccessRoute, mainRoute } from "../routes.ts"

const WORDS = 24

/** /scw/import/mnemonic: 24 words (typed or pasted); the address must match a known one. */
export function ImportMnemonicScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const [state] = useWallet()
  const [text, setText] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  useHideTabBar()
  const words = splitWords(text)

  const submit = async () => {
    if (busy) return
    if (words.length !== WORDS) {
      setError(t("import.count", { count: words.length }))
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      await importWallet(kernel, words)
      // The server tracks the address again (an import after logout or on a new device); never blocks.
      void import("./server-sync.ts").then((m) => m.syncAfterSetup(kernel, "import")).catch(() => undefined)
      setText("")
      void go(importSuccessRoute, { replace: true })
    } catch (e) {
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      setError(
        e instanceof ImportError && e.message === ADDRESS_MISMATCH
          ? t("import.mismatch")
          : e instanceof ImportError && e.message === INVALID_MNEMONIC
            ? t("import.invalid")
            : t("errors.generic"),
      )
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("import.title")}</h1>
      <p className={styles.lead}>{state.address ? t("import.textKnown") : t("import.text")}</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault()
          void submit()
        }}
      >
        <TextField
          multiline
          label={t("import.label")}
          value={text}
          rows={8}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          hint={t("import.progress", { count: words.length, total: WORDS })}
          {...(error ? { error } : {})}
          onChange={(value) => {
            setError(undefined)
            setText(value)
          }}
        />
      </form>
      <MainButton text={t("import.continue")} progress={busy} disabled={words.length === 0} onClick={() => void submit()} />
    </main>
  )
}

/** /scw/import/success */
export function ImportSuccessScreen() {
  const t = useT(NS)
  const go = useGo()
  const finish = useFinishSetup()
  useHideTabBar()
  return (
    <main className={styles.screen}>
      <Hero icon="check" title={t("import.successTitle")} text={t("import.successText")} />
      <MainButton text={t("backup.openWallet")} progress={finish.busy} onClick={() => void finish.run().then(() => go(mainRoute, { replace: true }))} />
    </main>
  )
}
