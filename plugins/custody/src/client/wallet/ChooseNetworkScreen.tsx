import { useNavigate, useParams } from "@tanstack/react-router"
import { useT } from "@wallet/kernel-react"
import { Cell, List, Placeholder, Section } from "@wallet/kernel-react/ui"
import { currencyInfo } from "../../currencies.ts"
import { networkName } from "./networks.ts"
import { AssetAvatar, NS, Screen } from "./ui.tsx"

/** /choose-network/{type}/{assetCurrency}: the networks the currency moves on, the default first. */
export default function ChooseNetworkScreen() {
  const t = useT(NS)
  const navigate = useNavigate()
  const { type = "receive", assetCurrency = "" } = useParams({ strict: false }) as { type?: string; assetCurrency?: string }
  const info = currencyInfo(assetCurrency) ?? currencyInfo(assetCurrency.toUpperCase())
  if (!info || info.networks.length === 0) return <Screen><Placeholder title={t("receive.unavailable", { currency: assetCurrency })} /></Screen>
  const choose = (network: string) =>
    void navigate({
      to: type === "send" ? "/assets/send" : "/receive",
      search: { assetCurrency: info.code, assetNetwork: network },
    } as never)
  return (
    <Screen title={t("receive.chooseNetwork")}>
      <List>
        <Section footer={t("receive.networkChooseHint")}>
          {info.networks.map((network) => (
            <Cell key={network} data-network={network} before={<AssetAvatar currency={network.toUpperCase()} size={36} />} title={networkName(network)} subtitle={info.code} chevron onClick={() => choose(network)} />
          ))}
        </Section>
      </List>
    </Screen>
  )
}
