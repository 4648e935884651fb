import { useEffect, useState } from "react"
import { useParams } from "@tanstack/react-router"
import type { NftItem } from "@wallet/kernel/chain"
import { MainButton, useGo, useHideTabBar, useKernel, usePasscode, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section, SkeletonList, TextField, useSnackbar } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import { formatAmount, TON_DECIMALS } from "../core/amount.ts"
import { addPending } from "../core/pending.ts"
import { Hero } from "./common.tsx"
import { SendSuccessScreen } from "./SendScreens.tsx"
import { vaultErrorText, wordsForOperation } from "./flows.ts"
import { chainFor, NS, useChainQuery, useWallet } from "./hooks.ts"
import { tonSpaceKeys } from "./queryKeys.ts"
import { useTon } from "./ton.ts"
import { emulateSend, resolveReceiver, signAndSend, type EmulationOutcome, type Receiver, type SendRequest, type WalletRef } from "./transfer.ts"
import styles from "./ton.module.css"
import { collectibleReceiverRoute, collectibleRoute, collectibleSendRoute, collectibleSendSuccessRoute, importMnemonicRoute } from "../routes.ts"

export const nftName = (item: NftItem) => (typeof item.metadata.name === "string" ? item.metadata.name : `#${item.index}`)
const nftImage = (item: NftItem) => item.previews?.find((p) => p.resolution === "500x500")?.url ?? item.previews?.[0]?.url

export function NftCell({ item }: { readonly item: NftItem }) {
  const go = useGo()
  return (
    <Cell
      title={nftName(item)}
      subtitle={item.collection?.name ?? shortAddress(item.address)}
      chevron
      onClick={() => void go(collectibleRoute, { params: { address: item.address } })}
    />
  )
}

export function useNfts(raw: string | undefined, network: "mainnet" | "testnet") {
  const kernel = useKernel()
  const chain = chainFor(kernel, network)
  return useChainQuery(raw ? tonSpaceKeys.nfts(network, raw) : null, () => chain.getNfts(raw!, { limit: 100 }))
}

/** /scw/collectibles */
export function CollectiblesScreen() {
  const t = useT(NS)
  const [state] = useWallet()
  const nfts = useNfts(state.raw, state.walletNetwork)
  useHideTabBar()
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("nft.title")}</h1>
      {nfts.error ? (
        <Placeholder kind="error" title={t("errors.load")} />
      ) : !nfts.data ? (
        <SkeletonList label={t("nft.loading")} />
      ) : nfts.data.length === 0 ? (
        <Placeholder title={t("nft.empty")} />
      ) : (
        <List>
          <Section>
            {nfts.data.map((item) => (
              <NftCell key={item.address} item={item} />
            ))}
          </Section>
        </List>
      )}
    </main>
  )
}

const useNft = (address: string) => {
  const kernel = useKernel()
  const [state] = useWallet()
  const chain = chainFor(kernel, state.walletNetwork)
  return useChainQuery(tonSpaceKeys.nft(state.walletNetwork, address), () => chain.getNft(address))
}

/** /scw/collectible/{address}: the item, and send. */
export function CollectibleScreen() {
  const t = useT(NS)
  const go = useGo()
  const { address } = useParams({ strict: false }) as { address: string }
  const nft = useNft(address)
  const [state] = useWallet()
  useHideTabBar()
  const item = nft.data
  const ton = useTon()
  const [broken, setBroken] = useState(false)
  const mine = item?.owner?.address !== undefined && item.owner.address === state.raw
  const image = item && !broken ? nftImage(item) : undefined
  const parsed = item ? ton?.parseAddress(item.address) : undefined
  return (
    <main className={styles.screen}>
      {nft.error ? (
        <Placeholder kind="error" title={t("errors.load")} />
      ) : !item ? (
        <SkeletonList rows={3} label={t("nft.loading")} />
      ) : (
        <>
          {image ? (
            <img className={styles.nftImage} src={image} alt={nftName(item)} onError={() => setBroken(true)} />
          ) : (
            <Hero icon="ton" title={nftName(item)} />
          )}
          {image && <h1 className={styles.title}>{nftName(item)}</h1>}
          {typeof item.metadata.description === "string" && <p className={styles.lead}>{item.metadata.description}</p>}
          <List>
            <Section>
              {item.collection && <Cell title={t("nft.collection")} after={item.collection.name} />}
              <Cell title={t("nft.address")} after={shortAddress(parsed && ton ? ton.friendly(parsed.address, state.walletNetwork, true) : item.address)} />
            </Section>
          </List>
          {mine && <MainButton text={t("nft.send")} onClick={() => void go(collectibleReceiverRoute, { params: { address } })} />}
        </>
      )}
    </main>
  )
}

/** /scw/collectible/{address}/receiver-search: a .ton name or an account. */
export function CollectibleReceiverScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const { address } = useParams({ strict: false }) as { address: string }
  const [state] = useWallet()
  const ton = useTon()
  const [input, setInput] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  useHideTabBar()
  const submit = async () => {
    if (!ton || !state.raw || busy) return
    setBusy(true)
    const receiver = await resolveReceiver(ton, chainFor(kernel, state.walletNetwork), input, state.raw)
    setBusy(false)
    if (typeof receiver === "string") {
      setError(t(`send.receiverErrors.${receiver}`))
      return
    }
    void go(collectibleSendRoute, { params: { address, recipientAddress: receiver.raw }, search: { inputtedRecipientAddress: input.trim() } })
  }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("nft.sendTitle")}</h1>
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
          value={input}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...(error ? { error } : {})}
          onChange={(v) => {
            setInput(v)
            setError(undefined)
          }}
        />
      </form>
      <MainButton text={t("send.continue")} progress={busy} disabled={!ton || input.trim() === ""} onClick={() => void submit()} />
    </main>
  )
}

const hexToBuffer = (hex: string) => Buffer.from(hex, "hex")

/** /scw/collectible/{address}/send/{recipientAddress}: emulate, passcode, send. */
export function CollectibleSendScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const passcode = usePasscode()
  const go = useGo()
  const snackbar = useSnackbar()
  const { address, recipientAddress } = useParams({ strict: false }) as { address: string; recipientAddress: string }
  const [state, update] = useWallet()
  const ton = useTon()
  const nft = useNft(address)
  const [receiver, setReceiver] = useState<Receiver | string | undefined>(undefined)
  const [emulation, setEmulation] = useState<EmulationOutcome | undefined>(undefined)
  const [sending, setSending] = useState(false)
  useHideTabBar()
  const chain = chainFor(kernel, state.walletNetwork)
  useEffect(() => {
    if (!ton || !state.raw) return
    let alive = true
    void resolveReceiver(ton, chain, recipientAddress, state.raw).then((r) => alive && setReceiver(r))
    return () => {
      alive = false
    }
  }, [ton, chain, recipientAddress, state.raw])
  const wallet: WalletRef | undefined =
    ton && state.raw && state.publicKey
      ? { raw: state.raw, walletClass: state.walletClass, network: state.walletNetwork, publicKey: hexToBuffer(state.publicKey) }
      : undefined
  const request: SendRequest | undefined = receiver && typeof receiver !== "string" ? { kind: "nft", amount: 1n, receiver, nftAddress: address } : undefined
  const ready = ton !== undefined && wallet !== undefined && request !== undefined
  useEffect(() => {
    if (!ready) return
    let alive = true
    void emulateSend(ton, chain, wallet, request)
      .catch(() => ({ ok: false as const, reason: "unknown error" as const }))
      .then((outcome) => alive && setEmulation(outcome))
    return () => {
      alive = false
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, recipientAddress])

  const confirm = async () => {
    if (!ton || !wallet || !request || !emulation?.ok || sending || !state.address) return
    setSending(true)
    try {
      const words = await wordsForOperation(kernel, passcode, "send", state.address)
      if (words === "cancelled") return
      if (!words) {
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
          actions: [{ type: "NftItemTransfer", status: "pending", amount: "1", currency: "NFT", decimals: 0, recipient: request.receiver.raw }],
        }),
      }))
      void go(collectibleSendSuccessRoute, { params: { address, recipientAddress } })
    } catch (error) {
      // A vault that did not open shows the spec's text (decision 0530); other failures the generic one.
      snackbar.show({ id: "ton-send-failed", text: vaultErrorText(t, error) ?? t("send.failed") })
    } finally {
      setSending(false)
    }
  }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("confirm.title")}</h1>
      {typeof receiver === "string" ? (
        <Placeholder kind="error" title={t(`send.receiverErrors.${receiver}`)} />
      ) : !nft.data || !request ? (
        <SkeletonList rows={3} label={t("confirm.loading")} />
      ) : (
        <List>
          <Section>
            <Cell title={t("nft.item")} after={nftName(nft.data)} />
            <Cell
              title={t("confirm.recipient")}
              after={shortAddress(ton?.friendly(ton.parseAddress(request.receiver.raw)!.address, state.walletNetwork) ?? request.receiver.raw)}
            />
            <Cell
              title={t("confirm.fee")}
              after={emulation === undefined ? t("confirm.estimating") : emulation.ok ? `≈ ${formatAmount(emulation.fee, TON_DECIMALS, 4) || "0"} TON` : "—"}
            />
          </Section>
          {emulation && !emulation.ok && (
            <Placeholder kind="error" title={t("confirm.emulationFailed")} description={`Unable to emulate boc: ${emulation.reason}`} />
          )}
        </List>
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

/** /scw/collectible/{address}/send/{recipientAddress}/success */
export function CollectibleSendSuccessScreen() {
  return <SendSuccessScreen textKey="nft.sentText" />
}
