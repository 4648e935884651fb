import { lazy, Suspense, useEffect } from "react"
import { useSearch } from "@tanstack/react-router"
import { useGo, useKernel, useT } from "@wallet/kernel-react"
import { Banner, Button, Spinner, useSnackbar } from "@wallet/kernel-react/ui"
import { currencyInfo, type NetworkCode } from "../../currencies.ts"
import { useQuery } from "@tanstack/react-query"
import { loadedOf } from "../query.ts"
import { custodyKeys } from "../queryKeys.ts"
import { callWallet } from "./data.ts"
import { getOrCreateAddress } from "./deposit.ts"
import { shortAddress } from "./format.ts"
import { networkName } from "./networks.ts"
import { chooseAssetRoute, chooseNetworkRoute, type ReceiveSearch } from "../../routes.ts"
import { AssetAvatar, LoadError, NS, Screen } from "./ui.tsx"
import styles from "./wallet.module.css"

/** The encoder is only needed here: its own chunk. */
const QrCode = lazy(() => import("./QrCode.tsx"))

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * /receive?assetCurrency&assetNetwork: the user's deposit address of that network with its QR code,
 * copy and share. Without a currency it asks for one (choose asset), without a network for a
 * currency on several networks it asks for that (choose network). The address is got-or-created,
 * retried with the spec's delays while the network's address is missing.
 */
export default function ReceiveScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const go = useGo()
  const snackbar = useSnackbar()
  const search = useSearch({ strict: false }) as ReceiveSearch
  const info = search.assetCurrency ? (currencyInfo(search.assetCurrency) ?? currencyInfo(search.assetCurrency.toUpperCase())) : undefined
  const network: NetworkCode | undefined = search.assetNetwork ?? (info && info.networks.length === 1 ? info.networks[0] : undefined)
  const needsChoice = !info ? "asset" : !network || !info.networks.includes(network) ? "network" : undefined

  useEffect(() => {
    if (needsChoice === "asset" && !search.assetCurrency) void go(chooseAssetRoute, { params: { type: "receive" }, replace: true })
    if (needsChoice === "network" && info && info.networks.length > 1)
      void go(chooseNetworkRoute, { params: { type: "receive", assetCurrency: info.code }, replace: true })
  }, [needsChoice, info, search.assetCurrency, go])

  const currency = info?.code ?? ""
  const query = useQuery({
    queryKey: custodyKeys.depositAddress(currency, network ?? ""),
    queryFn: () =>
      getOrCreateAddress(
        () => callWallet(kernel, (c) => c.chain.custodyChain.getOrCreateWallet({ params: { currency }, query: { network: network! } })),
        network!,
        sleep,
      ),
    enabled: info !== undefined && network !== undefined && needsChoice === undefined,
  })
  const loaded = loadedOf(query)
  const reload = () => void query.refetch()

  if (needsChoice || !info || !network) {
    return search.assetCurrency && (!info || info.networks.length === 0) ? (
      <Screen>
        <Banner tone="error" title={t("receive.unavailable", { currency: search.assetCurrency })} />
      </Screen>
    ) : (
      <Screen>
        <Spinner size="l" label={t("common.loading")} />
      </Screen>
    )
  }

  const deposit = loaded.state === "ok" ? loaded.value : undefined
  const address = deposit?.address
  const copy = async () => {
    if (!address) return
    try {
      await navigator.clipboard.writeText(address)
      kernel.telegram.haptic({ type: "notification", kind: "success" })
      snackbar.show({ id: "receive-copied", text: t("common.copied") })
    } catch {
      snackbar.show({ id: "receive-copied", text: address })
    }
  }
  const share = () => {
    if (!address) return
    const text = t("receive.shareText", { currency: info.code, network: networkName(network), address })
    if (typeof navigator.share === "function") void navigator.share({ text }).catch(() => undefined)
    else kernel.telegram.openLink(`https://t.me/share/url?url=${encodeURIComponent(address)}&text=${encodeURIComponent(text)}`)
  }

  return (
    <Screen title={t("receive.title", { currency: info.code })}>
      <section className={styles.receive}>
        <div className={styles.qrCard}>
          {address ? (
            <Suspense fallback={<div className={styles.qrPlaceholder} />}>
              <QrCode text={address} label={t("receive.qrLabel", { currency: info.code })} />
            </Suspense>
          ) : (
            <div className={styles.qrPlaceholder} aria-hidden="true" />
          )}
        </div>
        <p className={styles.addressLabel}>
          <AssetAvatar currency={info.code} size={20} /> {t("receive.address", { currency: info.code })} · {networkName(network)}
        </p>
        {loaded.state === "loading" ? (
          <Spinner label={t("receive.creating")} />
        ) : loaded.state === "error" ? (
          <LoadError title={t("receive.addressError")} onRetry={reload} />
        ) : (
          <>
            <p className={styles.address} data-testid="deposit-address">
              {address}
            </p>
            <div className={styles.buttonsRow}>
              <Button look="primary" onClick={() => void copy()}>
                {t("common.copy")}
              </Button>
              <Button look="secondary" onClick={share}>
                {t("common.share")}
              </Button>
            </div>
          </>
        )}
        <p className={styles.hint}>{t("receive.networkHint", { currency: info.code, network: networkName(network) })}</p>
        {deposit?.wallet_to_replace && <p className={styles.hint}>{t("receive.oldAddress", { address: shortAddress(deposit.wallet_to_replace) })}</p>}
        {search.freeze === "true" && <p className={styles.hint}>{t("receive.frozenNote")}</p>}
      </section>
    </Screen>
  )
}
