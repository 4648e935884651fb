import { useMemo, useState } from "react"
import { MainButton, useGo, useHideTabBar, useKernel, usePasscode, useT } from "@wallet/kernel-react"
import { Placeholder, TextField, useSnackbar } from "@wallet/kernel-react/ui"
import { Hero, WordGrid } from "./common.tsx"
import { protectHeld } from "./flows.ts"
import { NS, useWallet } from "./hooks.ts"
import { secrets } from "./secrets.ts"
import styles from "./ton.module.css"
import { backupSuccessRoute, backupTestRoute, importMnemonicRoute, mainRoute } from "../routes.ts"

/** Seals the words under the passcode before leaving a setup flow (once; a cancel keeps them in memory). */
export function useFinishSetup() {
  const kernel = useKernel()
  const passcode = usePasscode()
  const [busy, setBusy] = useState(false)
  return {
    busy,
    run: async () => {
      if (busy) return
      setBusy(true)
      await protectHeld(kernel, passcode).catch(() => "memory" as const)
      setBusy(false)
    },
  }
}

/** How many words the backup test asks for (spec 2: test three of them). */
export const BACKUP_TEST_WORDS = 3

const useHeldWords = () => {
  const [state] = useWallet()
  return state.address ? secrets.wordsFor(state.address) : null
}

function WordsMissing() {
  const t = useT(NS)
  const go = useGo()
  return (
    <main className={styles.screen}>
      <Placeholder kind="error" title={t("backup.missingTitle")} description={t("backup.missingText")} />
      <MainButton text={t("backup.missingAction")} onClick={() => void go(importMnemonicRoute)} />
    </main>
  )
}

/** /scw/backup/manual: the 24 words, to write down. */
export function BackupWordsScreen() {
  const t = useT(NS)
  const go = useGo()
  const words = useHeldWords()
  useHideTabBar()
  if (!words) return <WordsMissing />
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("backup.title")}</h1>
      <p className={styles.lead}>{t("backup.text")}</p>
      <WordGrid words={words} />
      <MainButton text={t("backup.done")} onClick={() => void go(backupTestRoute)} />
    </main>
  )
}

/** Three distinct random word positions, in order. */
export const pickTestIndices = (count: number, total: number, random: () => number = Math.random): ReadonlyArray<number> => {
  const picked = new Set<number>()
  while (picked.size < Math.min(count, total)) picked.add(Math.floor(random() * total))
  return [...picked].sort((a, b) => a - b)
}

/** /scw/backup/test: type three of the words; success marks the manual backup done. */
export function BackupTestScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const [state, update] = useWallet()
  const words = useHeldWords()
  const indices = useMemo(() => pickTestIndices(BACKUP_TEST_WORDS, words?.length ?? 24), [words])
  const [answers, setAnswers] = useState<ReadonlyArray<string>>(() => indices.map(() => ""))
  const [wrong, setWrong] = useState(false)
  useHideTabBar()
  if (!words || !state.address) return <WordsMissing />
  const address = state.address

  const check = () => {
    const ok = indices.every((index, i) => answers[i]!.trim().toLowerCase() === words[index])
    if (!ok) {
      setWrong(true)
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      snackbar.show({ id: "ton-backup-wrong", text: t("backup.wrongWords") })
      return
    }
    update((s) => ({
      ...s,
      manualBackupComplete: true,
      setupComplete: true,
      manualSetups: s.manualSetups.includes(address) ? s.manualSetups : [...s.manualSetups, address],
    }))
    kernel.telegram.haptic({ type: "notification", kind: "success" })
    // The server keeps the flag for every device of this user; the list is refreshed after it.
    void import("./server-sync.ts").then((m) => m.syncAfterBackup(kernel, address)).catch(() => undefined)
    void go(backupSuccessRoute, { replace: true })
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("backup.testTitle")}</h1>
      <p className={styles.lead}>{t("backup.testText", { a: indices[0]! + 1, b: indices[1]! + 1, c: indices[2]! + 1 })}</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault()
          check()
        }}
      >
        {indices.map((index, i) => (
          <TextField
            key={index}
            label={t("backup.wordN", { n: index + 1 })}
            value={answers[i]!}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...(wrong && answers[i]!.trim().toLowerCase() !== words[index] ? { error: t("backup.wrongWord") } : {})}
            onChange={(value) => {
              setWrong(false)
              setAnswers((current) => current.map((a, j) => (j === i ? value : a)))
            }}
          />
        ))}
        <button type="submit" hidden />
      </form>
      <MainButton text={t("backup.check")} disabled={answers.some((a) => a.trim() === "")} onClick={check} />
    </main>
  )
}

/** /scw/backup/success */
export function BackupSuccessScreen() {
  const t = useT(NS)
  const go = useGo()
  const finish = useFinishSetup()
  useHideTabBar()
  return (
    <main className={styles.screen}>
      <Hero icon="check" title={t("backup.successTitle")} text={t("backup.successText")} />
      <MainButton text={t("backup.openWallet")} progress={finish.busy} onClick={() => void finish.run().then(() => go(mainRoute, { replace: true }))} />
    </main>
  )
}
