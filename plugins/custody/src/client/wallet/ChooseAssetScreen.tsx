import { useState } from "react"
import { useParams } from "@tanstack/react-router"
import { useGoTo, useKernel, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, SearchInput, Section, SkeletonList } from "@wallet/kernel-react/ui"
import { useQuery } from "@tanstack/react-query"
import { loadedOf } from "../query.ts"
import { accountsQuery, useFiat } from "./data.ts"
import { formatCryptoAmount } from "./format.ts"
import { afterAssetChosen } from "./networks.ts"
import { AssetAvatar, LoadError, NS, Screen, useAssetName } from "./ui.tsx"
import styles from "./wallet.module.css"

/** /choose-asset/{type}: every asset that moves on a network, searchable by code or name. */
export default function ChooseAssetScreen() {
  const t = useT(NS)
  const kernel = useKernel()
  const goTo = useGoTo()
  const nameOf = useAssetName()
  const { type = "receive" } = useParams({ strict: false }) as { type?: string }
  const [query, setQuery] = useState("")
  const language = kernel.i18n.language()
  const fiat = useFiat(kernel).data
  const accounts = useQuery({ ...accountsQuery(kernel, fiat ?? ""), enabled: fiat !== undefined })
  const loaded = loadedOf(accounts)
  const reload = () => void accounts.refetch()

  const q = query.trim().toLowerCase()
  const assets =
    loaded.state === "ok"
      ? loaded.value.assets.filter((a) => a.networks.length > 0 && (q === "" || a.currency.toLowerCase().includes(q) || nameOf(a).toLowerCase().includes(q)))
      : []
  return (
    <Screen title={t("receive.chooseAsset")}>
      <div className={styles.search}>
        <SearchInput
          value={query}
          onChange={setQuery}
          aria-label={t("receive.searchAsset")}
          placeholder={t("receive.searchAsset")}
          clearLabel={t("common.clear")}
        />
      </div>
      {loaded.state === "loading" ? (
        <SkeletonList />
      ) : loaded.state === "error" ? (
        <LoadError onRetry={reload} />
      ) : assets.length === 0 ? (
        <Placeholder title={t("receive.noAsset", { query })} />
      ) : (
        <List>
          <Section>
            {assets.map((asset) => (
              <Cell
                key={asset.currency}
                before={<AssetAvatar currency={asset.currency} />}
                title={nameOf(asset)}
                subtitle={asset.currency}
                after={formatCryptoAmount(asset.balance, asset.decimals, asset.currency, language)}
                chevron
                onClick={() => void goTo(afterAssetChosen(type, asset))}
              />
            ))}
          </Section>
        </List>
      )}
    </Screen>
  )
}
