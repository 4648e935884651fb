import { useMemo, useState } from "react"
import { useSearch } from "@tanstack/react-router"
import { MainButton, useGo, useKernel, useT } from "@wallet/kernel-react"
import { Avatar, Button, Cell, List, Placeholder, Section, SegmentedControl, Skeleton, Spinner, TextField } from "@wallet/kernel-react/ui"
import { CURRENCIES, currencyInfo, type NetworkCode } from "../../currencies.ts"
import { toClientAddressError } from "../../api.ts"
import { call, chainClient, errorCode, errorTag } from "./clients.ts"
import { networkLabel, sendableCurrencies, useDebounced } from "./hooks.ts"
import { useQuery } from "@tanstack/react-query"
import { asLoad, FRESH_EACH_VISIT, unwrap } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { amountProblem, formatAmount, toDecimal } from "./logic.ts"
import { AmountField } from "./AmountField.tsx"
import { cleanSearch, type SendParams } from "./search.ts"
import styles from "./send.module.css"
import { sendConfirmationRoute, sendRoute } from "../../routes.ts"

/** Spec 2 §5: comments go with TON-network withdrawals; at most 120 characters (api/chain.ts). */
const COMMENT_MAX = 120

/**
 * /assets/send: send to an address (asset, network, address check, amount with Max, fee, comment).
 * The form starts from the search params; a navigation that changes them (a QR scanned, a link)
 * starts it again.
 */
export default function SendRoute() {
  const search = useSearch({ strict: false }) as SendParams
  const key = [search.assetCurrency, search.currency, search.assetNetwork, search.address, search.value, search.comment, search.maxBalanceUsedAmount].join("|")
  return <SendScreen key={key} search={search} />
}

function SendScreen({ search }: { readonly search: SendParams }) {
  const t = useT("custody")
  const kernel = useKernel()
  const go = useGo()
  const language = kernel.i18n.language()

  const initialCurrency = [search.assetCurrency, search.currency].find((code) => code !== undefined && (currencyInfo(code)?.networks.length ?? 0) > 0)
  const [currency, setCurrency] = useState<string | undefined>(initialCurrency)
  const info = currency ? currencyInfo(currency) : undefined
  const [network, setNetwork] = useState<NetworkCode | undefined>(() =>
    info ? (search.assetNetwork && info.networks.includes(search.assetNetwork) ? search.assetNetwork : info.networks[0]) : undefined,
  )
  const [address, setAddress] = useState(search.address ?? "")
  const [value, setValue] = useState(search.value && /^\d+(\.\d+)?$/.test(search.value) ? search.value : "")
  const [maxUsed, setMaxUsed] = useState<string | undefined>(search.maxBalanceUsedAmount)
  const [comment, setComment] = useState(search.comment ?? "")

  const chooseCurrency = (code: string) => {
    const next = currencyInfo(code)
    setCurrency(code)
    setNetwork(next?.networks[0])
    setValue("")
    setMaxUsed(undefined)
    void go(sendRoute, { search: cleanSearch({ ...search, assetCurrency: code, assetNetwork: next?.networks[0], value: undefined }), replace: true })
  }

  const limits = asLoad(
    useQuery({
      queryKey: custodyKeys.withdrawLimits(currency ?? "", network ?? ""),
      queryFn: async () => {
        const client = await chainClient(kernel)
        return unwrap(await call(kernel, client.custodyChain.withdrawLimits({ query: { currency: currency!, network: network! } })))
      },
      enabled: currency !== undefined && network !== undefined,
      ...FRESH_EACH_VISIT,
    }),
  )

  const typed = address.trim()
  const debounced = useDebounced(typed, 400)
  const check = asLoad(
    useQuery({
      queryKey: custodyKeys.addressCheck(currency ?? "", network ?? "", debounced),
      queryFn: async () => {
        const client = await chainClient(kernel)
        return unwrap(await call(kernel, client.custodyChain.validateAddress({ query: { currency: currency!, network: network!, address: debounced } })))
      },
      enabled: currency !== undefined && network !== undefined && debounced !== "",
      ...FRESH_EACH_VISIT,
    }),
  )
  const checking = typed !== "" && (typed !== debounced || check.load.state === "loading")
  const addressError = (() => {
    if (typed === "" || checking || check.load.state !== "error") return undefined
    const error = check.load.error
    if (errorTag(error) === "AddressCheckError") return t(`send.address.error.${toClientAddressError(errorCode(error))}`)
    if (errorCode(error) === "chain_unavailable") return t("send.address.unavailable")
    if (errorTag(error) === "ChainRequestError") return t(`send.address.error.invalid_address`)
    return t("send.address.unavailable")
  })()
  const resolved = typed !== "" && !checking && check.load.state === "ok" ? check.load.value : undefined

  const decimals = info?.decimals ?? 0
  const amountRules =
    limits.load.state === "ok"
      ? {
          decimals,
          balance: limits.load.value.max_sendable + limits.load.value.fee,
          fee: limits.load.value.fee,
          min: limits.load.value.min_amount,
          max: limits.load.value.max_amount,
        }
      : undefined
  const problem = amountRules ? amountProblem(value, amountRules) : "empty"
  const amountError = (() => {
    if (!amountRules || limits.load.state !== "ok") return undefined
    switch (problem) {
      case "too_small":
        return t("send.amount.tooSmall", { amount: formatAmount(limits.load.value.min_amount, decimals, currency!, language) })
      case "too_large":
        return t("send.amount.tooLarge", { amount: formatAmount(limits.load.value.max_amount, decimals, currency!, language) })
      case "insufficient":
        return t("send.amount.insufficient", { currency })
      default:
        return undefined
    }
  })()

  const applyMax = () => {
    if (limits.load.state !== "ok") return
    const max = toDecimal(limits.load.value.max_sendable, decimals)
    kernel.telegram.haptic({ type: "selection_change" })
    setValue(max)
    setMaxUsed(max)
  }

  const commentAllowed = network === "ton"
  const ready = currency !== undefined && network !== undefined && resolved !== undefined && problem === undefined && comment.length <= COMMENT_MAX

  const next = () => {
    if (!ready) return
    const params = cleanSearch({
      assetCurrency: currency,
      assetNetwork: network,
      address: typed,
      value,
      comment: commentAllowed && comment.trim() !== "" ? comment.trim() : undefined,
      maxBalanceUsedAmount: maxUsed !== undefined && maxUsed === value ? maxUsed : undefined,
      qr: search.qr ? true : undefined,
    })
    // Keep what was typed in this history entry, so Back from the confirmation shows it again.
    void go(sendRoute, { search: params, replace: true })
    void go(sendConfirmationRoute, { search: params })
  }

  const currencies = useMemo(() => sendableCurrencies(CURRENCIES), [])

  if (currency === undefined || info === undefined || network === undefined) {
    return (
      <main className={styles.screen}>
        <h1 className={styles.title}>{t("send.chooseAsset")}</h1>
        <List>
          <Section>
            {currencies.map((entry) => (
              <Cell
                key={entry.code}
                before={<Avatar name={entry.code} size={40} />}
                title={entry.name}
                subtitle={entry.code}
                chevron
                onClick={() => chooseCurrency(entry.code)}
              />
            ))}
          </Section>
        </List>
      </main>
    )
  }

  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("send.title", { currency })}</h1>
      <List>
        <Section header={t("send.asset")}>
          <Cell
            before={<Avatar name={currency} size={40} />}
            title={info.name}
            subtitle={currency}
            after={t("send.change")}
            onClick={() => {
              setCurrency(undefined)
              setNetwork(undefined)
            }}
          />
        </Section>
      </List>
      {info.networks.length > 1 && (
        <div className={styles.field}>
          <p className={styles.fieldLabel} id="send-network-label">
            {t("send.network")}
          </p>
          <SegmentedControl
            aria-labelledby="send-network-label"
            stretched
            items={info.networks.map((code) => ({ value: code, label: networkLabel(code, currency) }))}
            value={network}
            onChange={(code) => {
              setNetwork(code)
              setMaxUsed(undefined)
            }}
          />
        </div>
      )}
      <div className={styles.field}>
        <TextField
          label={t("send.address.label", { network: networkLabel(network, currency) })}
          value={address}
          onChange={setAddress}
          placeholder={t("send.address.placeholder")}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          error={addressError}
          hint={checking ? t("send.address.checking") : resolved?.domain ? t("send.address.resolved", { address: resolved.address }) : undefined}
          after={checking ? <Spinner size="s" label={t("send.address.checking")} /> : undefined}
        />
      </div>
      <AmountField
        id="send-amount"
        label={t("send.amount.label")}
        maxLabel={t("send.amount.max")}
        value={value}
        onChange={setValue}
        decimals={decimals}
        currency={currency}
        language={language}
        error={amountError}
        maxDisabled={limits.load.state !== "ok" || limits.load.value.max_sendable === 0n}
        onMax={applyMax}
        meta={
          limits.load.state === "loading" ? (
            <>
              <Skeleton shape="text" width={140} />
              <Skeleton shape="text" width={90} />
            </>
          ) : limits.load.state === "ok" ? (
            <>
              <span>{t("send.amount.available", { amount: formatAmount(limits.load.value.max_sendable, decimals, currency, language) })}</span>
              <span>{t("send.fee", { amount: formatAmount(limits.load.value.fee, decimals, currency, language) })}</span>
            </>
          ) : null
        }
      />
      {limits.load.state === "error" && (
        <Placeholder
          kind="error"
          title={t("send.limitsError")}
          action={
            <Button look="secondary" size="s" onClick={limits.reload}>
              {t("send.retry")}
            </Button>
          }
        />
      )}
      {commentAllowed && (
        <div className={styles.field}>
          <TextField
            label={t("send.comment.label")}
            value={comment}
            onChange={setComment}
            placeholder={t("send.comment.placeholder")}
            maxLength={COMMENT_MAX}
            hint={t("send.comment.hint")}
          />
        </div>
      )}
      <MainButton text={t("send.continue")} disabled={!ready} onClick={next} />
    </main>
  )
}
