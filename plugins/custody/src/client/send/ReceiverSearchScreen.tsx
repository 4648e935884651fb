import { useEffect, useState } from "react"
import { Schema } from "effect"
import { useSearch } from "@tanstack/react-router"
import { defineStore } from "@wallet/kernel"
import { schemaCheck } from "@wallet/kernel/schema"
import { Icon, invalidateBalances, kernelQueryClient, MainButton, runEffect, useGo, useKernel, useT } from "@wallet/kernel-react"
import {
  Avatar,
  BottomSheet,
  Button,
  Cell,
  List,
  Placeholder,
  SearchInput,
  Section,
  Skeleton,
  SkeletonList,
  TextField,
  useSnackbar,
} from "@wallet/kernel-react/ui"
import { currencyInfo, parseAmount } from "../../currencies.ts"
import type { Asset, Receiver } from "../../api.ts"
import { transferOperation } from "../../operations.ts"
import { call, custodyClient, errorCode, errorTag, idempotencyKey } from "./clients.ts"
import { operationGate, operationTokenErrorKey } from "./gate.ts"
import { useDebounced } from "./hooks.ts"
import { useQuery } from "@tanstack/react-query"
import { asLoad, FRESH_EACH_VISIT, freshLoadedOf, unwrap } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { accountsQuery } from "../wallet/data.ts"
import { amountProblem, formatAmount, pushRecent, RECENT_RECEIVERS_MAX, toDecimal } from "./logic.ts"
import { AmountField } from "./AmountField.tsx"
import { cleanSearch } from "./search.ts"
import styles from "./send.module.css"
import { receiverSearchRoute, transferRoute } from "../../routes.ts"

const ReceiverSchema = Schema.Struct({
  userId: Schema.Int,
  username: Schema.NullOr(Schema.String),
  firstName: Schema.String,
  lastName: Schema.NullOr(Schema.String),
  photoUrl: Schema.NullOr(Schema.String),
})

/** The last receivers chosen on this device (spec 1 §9: at most two in a recent list). */
export const RecentReceiversStore = defineStore({
  key: "custody.recentReceivers",
  version: 1,
  schema: schemaCheck(Schema.Array(ReceiverSchema)),
  initial: [] as ReadonlyArray<Receiver>,
})

const fullName = (r: Pick<Receiver, "firstName" | "lastName">) => [r.firstName, r.lastName].filter(Boolean).join(" ")

function ReceiverCell({ receiver, onClick }: { readonly receiver: Receiver; readonly onClick?: () => void }) {
  return (
    <Cell
      before={<Avatar src={receiver.photoUrl ?? undefined} name={fullName(receiver)} colorSeed={receiver.userId} size={40} />}
      title={fullName(receiver)}
      subtitle={receiver.username ? `@${receiver.username}` : undefined}
      chevron={onClick !== undefined}
      {...(onClick ? { onClick } : {})}
    />
  )
}

/** /assets/receiver-search: find a Telegram user, then amount and confirmation of a custody transfer. */
export default function ReceiverSearchScreen() {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const search = useSearch({ strict: false }) as { assetCurrency?: string; receiverId?: string; value?: string }
  const [recent, setRecent] = useState<ReadonlyArray<Receiver>>([])
  const [selected, setSelected] = useState<Receiver | undefined>()

  useEffect(() => {
    void runEffect(kernel, kernel.storage.load(RecentReceiversStore)).then(setRecent)
  }, [kernel])

  const choose = (receiver: Receiver) => {
    kernel.telegram.haptic({ type: "selection_change" })
    setSelected(receiver)
    void go(receiverSearchRoute, { search: cleanSearch({ assetCurrency: search.assetCurrency, receiverId: String(receiver.userId) }) })
  }

  const receiverId = search.receiverId && /^\d+$/.test(search.receiverId) ? Number(search.receiverId) : undefined
  const receiver = receiverId === undefined ? undefined : selected?.userId === receiverId ? selected : recent.find((r) => r.userId === receiverId)

  if (receiverId !== undefined && receiver) {
    return (
      <TransferForm
        receiver={receiver}
        initialCurrency={search.assetCurrency}
        onSent={async (sent) => {
          const next = pushRecent(
            recent.map((r) => ({ ...r, id: r.userId })),
            { ...sent, id: sent.userId },
            RECENT_RECEIVERS_MAX,
          ).map(({ id: _id, ...r }) => r)
          await runEffect(kernel, kernel.storage.save(RecentReceiversStore, next)).catch(() => undefined)
        }}
      />
    )
  }
  return <SearchStep recent={recent} onChoose={choose} t={t} />
}

function SearchStep({
  recent,
  onChoose,
  t,
}: {
  readonly recent: ReadonlyArray<Receiver>
  readonly onChoose: (r: Receiver) => void
  readonly t: (key: string, options?: Record<string, unknown>) => string
}) {
  const kernel = useKernel()
  const [query, setQuery] = useState("")
  const trimmed = query.trim().replace(/^@/, "")
  const debounced = useDebounced(trimmed, 300)
  const results = asLoad(
    useQuery({
      queryKey: custodyKeys.receivers(debounced),
      queryFn: async () => {
        const client = await custodyClient(kernel)
        return unwrap(await call(kernel, client.custodyTransfers.searchReceivers({ query: { query: debounced } })))
      },
      enabled: debounced !== "",
      ...FRESH_EACH_VISIT,
    }),
  )
  const searching = trimmed !== "" && (trimmed !== debounced || results.load.state === "loading")
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.receiver.title")}</h1>
      <div className={styles.field}>
        <SearchInput
          value={query}
          onChange={setQuery}
          aria-label={t("send.receiver.search")}
          placeholder={t("send.receiver.placeholder")}
          clearLabel={t("send.receiver.clear")}
          icon={<Icon name="search" size={20} />}
          autoFocus
        />
      </div>
      <List>
        {trimmed === "" ? (
          recent.length > 0 ? (
            <Section header={t("send.receiver.recent")}>
              {recent.slice(0, RECENT_RECEIVERS_MAX).map((r) => (
                <ReceiverCell key={r.userId} receiver={r} onClick={() => onChoose(r)} />
              ))}
            </Section>
          ) : (
            <Placeholder icon={<Icon name="search" size={48} />} title={t("send.receiver.emptyTitle")} description={t("send.receiver.emptyText")} />
          )
        ) : searching ? (
          <Section>
            <SkeletonList rows={3} label={t("send.receiver.searching")} />
          </Section>
        ) : results.load.state === "error" ? (
          <Placeholder
            kind="error"
            title={t("send.receiver.error")}
            action={
              <Button look="secondary" size="s" onClick={results.reload}>
                {t("send.retry")}
              </Button>
            }
          />
        ) : results.load.state === "ok" && results.load.value.items.length === 0 ? (
          <Placeholder title={t("send.receiver.noResults", { query: trimmed })} description={t("send.receiver.noResultsText")} />
        ) : results.load.state === "ok" ? (
          <Section header={t("send.receiver.results")}>
            {results.load.value.items.map((r) => (
              <ReceiverCell key={r.userId} receiver={r} onClick={() => onChoose(r)} />
            ))}
          </Section>
        ) : null}
      </List>
    </main>
  )
}

function TransferForm({
  receiver,
  initialCurrency,
  onSent,
}: {
  readonly receiver: Receiver
  readonly initialCurrency: string | undefined
  readonly onSent: (r: Receiver) => Promise<void>
}) {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const language = kernel.i18n.language()
  const accountsQ = useQuery(accountsQuery(kernel, ""))
  const accounts = { load: freshLoadedOf(accountsQ), reload: () => void accountsQ.refetch() }
  const sendable = (assets: ReadonlyArray<Asset>) => assets.filter((a) => a.category === "onchain" && a.actions.send.isEnabled)
  const [chosen, setCurrency] = useState<string | undefined>(initialCurrency)
  const [picking, setPicking] = useState(false)
  const [value, setValue] = useState("")
  const [comment, setComment] = useState("")
  const [confirming, setConfirming] = useState(false)
  const [sending, setSending] = useState(false)
  const [key, setKey] = useState(idempotencyKey)

  const assets = accounts.load.state === "ok" ? sendable(accounts.load.value.assets) : []
  // Until the user picks one: the asking link's currency, else the first asset with a balance.
  const currency = chosen ?? (assets.find((a) => (parseAmount(a.balance, a.decimals) ?? 0n) > 0n) ?? assets[0])?.currency
  const asset = assets.find((a) => a.currency === currency)
  const decimals = asset?.decimals ?? currencyInfo(currency ?? "")?.decimals ?? 0
  const balance = asset ? (parseAmount(asset.balance, asset.decimals) ?? 0n) : 0n
  const problem = asset ? amountProblem(value, { decimals, balance, fee: 0n }) : "empty"
  const amountMinor = problem === undefined ? parseAmount(value, decimals) : undefined

  const send = async () => {
    if (amountMinor === undefined || !asset || sending) return
    setSending(true)
    try {
      const payload = {
        idempotencyKey: key,
        receiverId: receiver.userId,
        currency: asset.currency,
        amount: toDecimal(amountMinor, decimals),
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      }
      // The operation token for exactly this transfer (decision 0550); the gate fails closed.
      const gate = await operationGate(kernel, transferOperation(payload))
      if (gate.kind === "cancelled") return
      if (gate.kind === "unavailable") {
        kernel.telegram.haptic({ type: "notification", kind: "error" })
        snackbar.show({ id: "custody-transfer-failed", text: t("send.operationToken.unavailable") })
        return
      }
      const client = await custodyClient(kernel)
      const result = await call(kernel, client.custodyTransfers.create({ headers: gate.headers, payload }))
      if (result.ok) {
        kernel.telegram.haptic({ type: "notification", kind: "success" })
        // Money moved: every balances query (wallet main's included) is stale now.
        void invalidateBalances(kernelQueryClient(kernel))
        await onSent(receiver)
        await go(transferRoute, { params: { transferId: result.value.id }, replace: true })
        return
      }
      kernel.telegram.haptic({ type: "notification", kind: "error" })
      const code = errorCode(result.error)
      const known = ["CustodyConflict", "CustodyBadRequest", "CustodyForbidden", "CustodyNotFound"].includes(errorTag(result.error) ?? "")
      const refused = operationTokenErrorKey(errorTag(result.error), code)
      snackbar.show({ id: "custody-transfer-failed", text: refused ? t(refused) : known && code ? t(`send.transfer.error.${code}`) : t("send.error.generic") })
      // A new attempt after a refusal is a new request.
      setKey(idempotencyKey())
      setConfirming(false)
    } finally {
      setSending(false)
    }
  }

  if (accounts.load.state === "error") {
    return (
      <main className={styles.screen}>
        <Placeholder
          kind="error"
          title={t("send.limitsError")}
          action={
            <Button look="secondary" size="s" onClick={accounts.reload}>
              {t("send.retry")}
            </Button>
          }
        />
      </main>
    )
  }

  const amountError = problem === "insufficient" ? t("send.amount.insufficient", { currency }) : undefined

  if (confirming && asset && amountMinor !== undefined) {
    return (
      <main className={styles.screen}>
        <div className={styles.hero}>
          <Avatar src={receiver.photoUrl ?? undefined} name={fullName(receiver)} colorSeed={receiver.userId} size={72} />
          <p className={styles.heroText}>{t("send.transfer.confirmTo", { name: fullName(receiver) })}</p>
          <p className={styles.heroAmount}>{formatAmount(amountMinor, decimals, asset.currency, language)}</p>
        </div>
        <List>
          <Section footer={t("send.transfer.expiryNote")}>
            <Cell title={t("send.transfer.receiver")} after={receiver.username ? `@${receiver.username}` : fullName(receiver)} />
            <Cell title={t("send.confirm.fee")} after={t("send.transfer.noFee")} />
            {comment.trim() && <Cell multiline title={t("send.comment.label")} description={comment.trim()} />}
          </Section>
          <div className={styles.buttons}>
            <Button look="plain" onClick={() => setConfirming(false)} disabled={sending}>
              {t("send.confirm.edit")}
            </Button>
          </div>
        </List>
        <MainButton
          text={t("send.transfer.send", { amount: formatAmount(amountMinor, decimals, asset.currency, language) })}
          progress={sending}
          onClick={() => void send()}
        />
      </main>
    )
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.transfer.title")}</h1>
      <List>
        <Section header={t("send.transfer.receiver")}>
          <ReceiverCell receiver={receiver} />
        </Section>
        <Section header={t("send.asset")}>
          {asset ? (
            <Cell
              before={<Avatar name={asset.currency} size={40} />}
              title={asset.name}
              subtitle={t("send.transfer.balance", { amount: formatAmount(balance, decimals, asset.currency, language) })}
              after={t("send.change")}
              onClick={() => setPicking(true)}
              aria-haspopup="dialog"
            />
          ) : (
            <Cell
              before={<Skeleton shape="circle" width={40} height={40} />}
              title={<Skeleton shape="text" width={120} />}
              subtitle={<Skeleton shape="text" width={80} />}
            />
          )}
        </Section>
      </List>
      <AmountField
        id="transfer-amount"
        label={t("send.amount.label")}
        maxLabel={t("send.amount.max")}
        value={value}
        onChange={setValue}
        decimals={decimals}
        currency={currency}
        language={language}
        error={amountError}
        disabled={!asset}
        maxDisabled={!asset || balance === 0n}
        onMax={() => {
          kernel.telegram.haptic({ type: "selection_change" })
          setValue(toDecimal(balance, decimals))
        }}
      />
      <div className={styles.field}>
        <TextField label={t("send.comment.label")} value={comment} onChange={setComment} placeholder={t("send.comment.placeholder")} maxLength={256} />
      </div>
      <BottomSheet open={picking} onClose={() => setPicking(false)} title={t("send.chooseAsset")} closeLabel={t("send.close")}>
        <List className={styles.pickerList}>
          <Section>
            {assets.map((a) => (
              <Cell
                key={a.currency}
                before={<Avatar name={a.currency} size={40} />}
                title={a.name}
                subtitle={a.currency}
                after={formatAmount(parseAmount(a.balance, a.decimals) ?? 0n, a.decimals, a.currency, language)}
                aria-current={a.currency === currency ? "true" : undefined}
                onClick={() => {
                  setCurrency(a.currency)
                  setValue("")
                  setPicking(false)
                }}
              />
            ))}
          </Section>
        </List>
      </BottomSheet>
      <MainButton text={t("send.continue")} disabled={problem !== undefined} onClick={() => setConfirming(true)} />
    </main>
  )
}
