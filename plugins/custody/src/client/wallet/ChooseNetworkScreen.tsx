import { useParams } from "@tanstack/react-router"
import { useGo, useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { currencyInfo, type NetworkCode } from "../../currencies.ts"
import { networkName } from "./networks.ts"
import { AssetAvatar, NS, Screen } from "./ui.tsx"
import { receiveRoute, sendRoute } from "../../routes.ts"

/** /choose-network/{type}/{assetCurrency}: the networks the currency moves on, the default first. */
export default function ChooseNetworkScreen() {
  const t = useT(NS)
  const go = useGo()
  const { type = "receive", assetCurrency = "" } = useParams({ strict: false }) as { type?: string; assetCurrency?: string }
  const info = currencyInfo(assetCurrency) ?? currencyInfo(assetCurrency.toUpperCase())
  if (!info || info.networks.length === 0)
    return (
      <Screen>
        <Placeholder title={t("receive.unavailable", { currency: assetCurrency })} />
      </Screen>
    )
  const choose = (network: NetworkCode) =>
    void (type === "send"
      ? go(sendRoute, { search: { assetCurrency: info.code, assetNetwork: network } })
      : go(receiveRoute, { search: { assetCurrency: info.code, assetNetwork: network } }))
  return (
    <Screen title={t("receive.chooseNetwork")}>
      <List>
        <Section footer={t("receive.networkChooseHint")}>
          {info.networks.map((network) => (
            <Cell
              key={network}
              data-network={network}
              before={<AssetAvatar currency={network.toUpperCase()} size={36} />}
              title={networkName(network)}
              subtitle={info.code}
              chevron
              onClick={() => choose(network)}
            />
          ))}
        </Section>
      </List>
    </Screen>
  )
}
