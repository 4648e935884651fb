import { useEffect, useMemo, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { analyticsOf, MainButton, useGo, useHideTabBar, useKernel, usePasscode, useT } from "@wallet/kernel-react"
import { AmountInput, Cell, List, Placeholder, Section, SkeletonList, TextField, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import { formatAmount, formatDisplay, parseAmount, TON_DECIMALS } from "../core/amount.ts"
import { buildAssetList, isListedToken, type Asset, type ExtraCurrencyAsset } from "../core/assets.ts"
import { EMULATION_REASONS } from "../core/emulation.ts"
import { addPending } from "../core/pending.ts"
import { Hero } from "./common.tsx"
import { useExtraCurrencies, useWalletData } from "./data.ts"
import { chainFor, NS, useWallet } from "./hooks.ts"
import { vaultErrorText, wordsForOperation } from "./flows.ts"
import { useTon } from "./ton.ts"
import { emulateSend, resolveReceiver, signAndSend, type EmulationOutcome, type Receiver, type SendRequest, type WalletRef } from "./transfer.ts"
import styles from "./ton.module.css"
import type { RouteRef } from "@wallet/kernel"
import {
  type ConfirmSearch,
  importMnemonicRoute,
  mainRoute,
  sendExtraCurrencyConfirmationRoute,
  sendJettonConfirmationRoute,
  sendSuccessRoute,
  sendTonConfirmationRoute,
} from "../routes.ts"

type Search = { asset?: string; to?: string; amount?: string; comment?: string }

/** What can be sent: TON, jettons and the chain's extra currencies (ADR 0630). */
type SendAsset = Asset | ExtraCurrencyAsset

const CONFIRM_ROUTE: Record<SendAsset["kind"], RouteRef<string, typeof ConfirmSearch.Type>> = {
  ton: sendTonConfirmationRoute,
  jetton: sendJettonConfirmationRoute,
  extra: sendExtraCurrencyConfirmationRoute,
}

const useAssets = () => {
  const [state] = useWallet()
  const { account, jettons } = useWalletData(state.raw)
  const extras = useExtraCurrencies(state.raw)
  const assets = useMemo(
    (): ReadonlyArray<SendAsset> | undefined =>
      account.data
        ? [
            ...buildAssetList({
              network: state.walletNetwork,
              tonBalance: account.data.balance,
              jettons: jettons.data ?? [],
              riskChecked: new Set(state.riskChecked),
            }),
            ...(extras.data ?? []),
          ]
        : undefined,
    [account.data, jettons.data, extras.data, state.walletNetwork, state.riskChecked],
  )
  return { assets, error: account.error, reload: account.reload }
}

const isScam = (asset: SendAsset) => asset.kind !== "extra" && asset.isScam

/** /scw/send: asset, receiver (address or .ton name), amount (truncated to the asset's decimals), comment. */
export function SendScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const search = useSearch({ strict: false }) as Search
  const [state] = useWallet()
  const ton = useTon()
  const { assets, error: loadError, reload } = useAssets()
  const [assetId, setAssetId] = useState(search.asset ?? "TON")
  const [to, setTo] = useState(search.to ?? "")
  const [amount, setAmount] = useState("")
  const [comment, setComment] = useState("")
  const [errors, setErrors] = useState<{ to?: string; amount?: string }>({})
  const [busy, setBusy] = useState(false)
  useHideTabBar()
  const sendable = assets?.filter((a) => !isScam(a) && (a.kind === "ton" || a.balance > 0n)) ?? []
  const asset: SendAsset | undefined = sendable.find((a) => a.address === assetId) ?? sendable[0]

  const submit = async () => {
    if (!asset || !ton || !state.raw || busy) return
    const next: { to?: string; amount?: string } = {}
    const minor = parseAmount(amount, asset.decimals)
    if (asset.kind !== "extra" && isListedToken(asset.currency)) next.amount = t("send.listed", { symbol: asset.currency })
    else if (minor === null || minor <= 0n) next.amount = t("send.amountRequired")
    else if (minor > asset.balance) next.amount = t("send.insufficient")
    setBusy(true)
    const receiver = to.trim() === "" ? "empty" : await resolveReceiver(ton, chainFor(kernel, state.walletNetwork), to, state.raw)
    setBusy(false)
    if (typeof receiver === "string") next.to = t(`send.receiverErrors.${receiver}`)
    setErrors(next)
    if (next.to || next.amount || minor === null) {
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      return
    }
    void go(CONFIRM_ROUTE[asset.kind], {
      search: { asset: asset.address, to: to.trim(), amount: minor.toString(), ...(comment.trim() ? { comment: comment.trim() } : {}) },
    })
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.title")}</h1>
      {!assets ? (
        loadError ? (
          <Placeholder
            kind="error"
            title={t("errors.load")}
            action={
              <button type="button" onClick={reload}>
                {t("errors.retry")}
              </button>
            }
          />
        ) : (
          <SkeletonList label={t("assets.loading")} />
        )
      ) : (
        <List>
          <Section header={t("send.asset")}>
            <div role="radiogroup" aria-label={t("send.asset")}>
              {sendable.map((a) => (
                <Cell
                  key={a.address}
                  role="radio"
                  aria-checked={a.address === asset?.address}
                  title={a.currency}
                  subtitle={t("send.available", { amount: formatDisplay(a.balance, a.decimals), currency: a.currency })}
                  after={a.address === asset?.address ? "✓" : undefined}
                  onClick={() => {
                    setAssetId(a.address)
                    setAmount("")
                  }}
                />
              ))}
            </div>
          </Section>
        </List>
      )}
      {assets && (
        <form
          className={styles.form}
          onSubmit={(e) => {
            e.preventDefault()
            void submit()
          }}
        >
          <TextField
            label={t("send.recipient")}
            placeholder={t("send.recipientPlaceholder")}
            value={to}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...(errors.to ? { error: errors.to } : {})}
            onChange={(v) => {
              setTo(v)
              setErrors((e) => ({ ...e, to: undefined }))
            }}
          />
          <div className={styles.amountBox}>
            <span className={styles.label} id="ton-send-amount">
              {t("send.amount")}
            </span>
            <div className={styles.amountField}>
              <AmountInput
                aria-labelledby="ton-send-amount"
                value={amount}
                decimals={asset?.decimals ?? TON_DECIMALS}
                currency={asset?.currency}
                invalid={errors.amount !== undefined}
                onChange={(v) => {
                  setAmount(v)
                  setErrors((e) => ({ ...e, amount: undefined }))
                }}
              />
            </div>
            {errors.amount && (
              <p className={styles.error} role="alert">
                {errors.amount}
              </p>
            )}
          </div>
          <TextField label={t("send.comment")} value={comment} maxLength={120} onChange={setComment} />
          <button type="submit" hidden />
        </form>
      )}
      <MainButton text={t("send.continue")} progress={busy} disabled={!asset || !ton || amount === "" || to.trim() === ""} onClick={() => void submit()} />
    </main>
  )
}

const hexToBuffer = (hex: string) => Buffer.from(hex, "hex")

/** /scw/send-ton-confirmation, /scw/send-jetton-confirmation and /scw/send-extra-currency-confirmation: emulate, passcode, send. */
export function ConfirmScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const passcode = usePasscode()
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as Search
  const [state, update] = useWallet()
  const ton = useTon()
  const { assets } = useAssets()
  const [receiver, setReceiver] = useState<Receiver | string | undefined>(undefined)
  const [emulation, setEmulation] = useState<EmulationOutcome | undefined>(undefined)
  const [sending, setSending] = useState(false)
  useHideTabBar()
  const asset = assets?.find((a) => a.address === (search.asset ?? "TON"))
  const amount = search.amount && /^\d+$/.test(search.amount) ? BigInt(search.amount) : null
  const chain = chainFor(kernel, state.walletNetwork)
  const wallet: WalletRef | undefined =
    ton && state.raw && state.publicKey
      ? { raw: state.raw, walletClass: state.walletClass, network: state.walletNetwork, publicKey: hexToBuffer(state.publicKey) }
      : undefined
  const request: SendRequest | undefined =
    asset && amount !== null && receiver && typeof receiver !== "string"
      ? {
          kind: asset.kind,
          amount,
          receiver,
          ...(search.comment ? { comment: search.comment } : {}),
          ...(asset.kind === "jetton" && asset.walletAddress ? { jettonWallet: asset.walletAddress } : {}),
          ...(asset.kind === "extra" ? { extraCurrencyId: asset.extraCurrencyId } : {}),
        }
      : undefined

  useEffect(() => {
    if (!ton || !state.raw || !search.to) return
    let alive = true
    void resolveReceiver(ton, chain, search.to, state.raw).then((r) => alive && setReceiver(r))
    return () => {
      alive = false
    }
  }, [ton, chain, search.to, state.raw])

  const requestKey = request ? `${request.kind}:${request.amount}:${request.receiver.raw}:${request.comment ?? ""}` : null
  useEffect(() => {
    if (!ton || !wallet || !request) return
    let alive = true
    setEmulation(undefined)
    void emulateSend(ton, chain, wallet, request)
      .catch(() => ({ ok: false as const, reason: EMULATION_REASONS.unknown }))
      .then((outcome) => alive && setEmulation(outcome))
    return () => {
      alive = false
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [ton, requestKey])

  const confirm = async () => {
    if (!ton || !wallet || !request || !emulation?.ok || sending || !state.address || !asset) return
    analyticsOf(kernel).track("ton-space.send_confirm", { asset: asset.kind ?? null })
    setSending(true)
    try {
      const words = await wordsForOperation(kernel, passcode, "send", state.address)
      if (words === "cancelled") return
      if (!words) {
        snackbar.show({ id: "ton-keys-missing", text: t("main.keysMissingTitle") })
        void go(importMnemonicRoute)
        return
      }
      const signed = await signAndSend(ton, chain, wallet, request, words)
      update((s) => ({
        ...s,
        pending: addPending(s.pending, {
          id: { kind: "messageHash", hash: signed.messageHash },
          account: wallet.raw,
          createdAt: Date.now(),
          actions: [
            {
              type: request.kind === "jetton" ? "JettonTransfer" : request.kind === "extra" ? "ExtraCurrencyTransfer" : "TonTransfer",
              status: "pending",
              amount: request.amount.toString(),
              currency: asset.currency,
              decimals: asset.decimals,
              recipient: request.receiver.raw,
              ...(request.comment ? { comment: request.comment } : {}),
            },
          ],
        }),
      }))
      kernel.telegram.haptic({ type: "notification", kind: "success" })
      void go(sendSuccessRoute, { replace: true })
    } catch (error) {
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      snackbar.show({ id: "ton-send-failed", text: vaultErrorText(t, error) ?? t("send.failed") })
    } finally {
      setSending(false)
    }
  }

  const receiverError = typeof receiver === "string" ? receiver : undefined
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("confirm.title")}</h1>
      {receiverError || amount === null ? (
        <Placeholder kind="error" title={t("send.receiverErrors.invalid_address")} />
      ) : !asset || !request ? (
        <SkeletonList rows={3} label={t("confirm.loading")} />
      ) : (
        <>
          <section className={styles.summary}>
            <p className={styles.summaryAmount}>
              {formatDisplay(request.amount, asset.decimals)} {asset.currency}
            </p>
          </section>
          <List>
            <Section>
              <Cell title={t("confirm.recipient")} after={request.receiver.domain ?? shortAddress(request.receiver.input)} />
              {request.comment && <Cell title={t("send.comment")} after={request.comment} />}
              <Cell
                title={t("confirm.fee")}
                after={emulation === undefined ? t("confirm.estimating") : emulation.ok ? `≈ ${formatAmount(emulation.fee, TON_DECIMALS, 4) || "0"} TON` : "—"}
              />
            </Section>
            {emulation && !emulation.ok && (
              <Placeholder kind="error" title={t("confirm.emulationFailed")} description={`Unable to emulate boc: ${emulation.reason}`} />
            )}
          </List>
        </>
      )}
      <MainButton
        text={t("confirm.send")}
        progress={sending || (request !== undefined && emulation === undefined)}
        disabled={!emulation?.ok}
        onClick={() => void confirm()}
      />
    </main>
  )
}

/** /scw/send-success (and the collectible's success with its own text). */
export function SendSuccessScreen({ textKey = "sendSuccess.text" }: { readonly textKey?: string } = {}) {
  const t = useT(NS)
  const go = useGo()
  useHideTabBar()
  return (
    <main className={styles.screen}>
      <Hero icon="check" title={t("sendSuccess.title")} text={t(textKey)} />
      <MainButton text={t("sendSuccess.done")} onClick={() => void go(mainRoute, { replace: true })} />
    </main>
  )
}
