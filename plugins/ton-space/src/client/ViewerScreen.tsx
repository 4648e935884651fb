/**
 * /scw/viewer?address=: any address, read-only (spec 2 §6: only with the dev_tools feature flag,
 * else back to /scw). Assets and history of the address; no send, receive or settings actions.
 * Without an address (or with an invalid one) an address field asks for it.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from "react"
import { Effect } from "effect"
import { useSearch } from "@tanstack/react-router"
import type { AccountEvent } from "@wallet/kernel/chain"
import { type Kernel, MainButton, useGo, useHideTabBar, useKernel, useT } from "@wallet/kernel-react"
import { Badge, Button, Cell, List, Placeholder, Section, SkeletonList, TextField } from "@wallet/kernel-react/ui"
import { shortAddress } from "../core/address.ts"
import { formatDisplay } from "../core/amount.ts"
import { buildAssetList, type Network } from "../core/assets.ts"
import { HISTORY_PAGE_SIZE } from "../core/history.ts"
import { visibleEvents } from "../core/history.ts"
import { loadAccount } from "./data.ts"
import { EventRow } from "./events.tsx"
import { TonBalance } from "./common.tsx"
import { chainFor, NS, useChainQuery, useWallet } from "./hooks.ts"
import { tonSpaceKeys } from "./queryKeys.ts"
import { useTon, type TonModule } from "./ton.ts"
import styles from "./ton.module.css"
import { mainRoute, viewerRoute } from "../routes.ts"

export const DEV_TOOLS_FLAG = "dev_tools"

/** The dev_tools flag, following the server's flags as they are applied. */
export function useDevTools(kernel: Kernel): boolean {
  return useSyncExternalStore(
    (listener) => kernel.flags.subscribe(listener),
    () => Effect.runSync(kernel.flags.isEnabled(DEV_TOOLS_FLAG)),
  )
}

/** The address to view: friendly or raw; the network from a friendly address's test-only flag, else the wallet's. */
const parseTarget = (ton: TonModule, input: string, walletNetwork: Network) => {
  const parsed = ton.parseAddress(input)
  if (!parsed) return undefined
  const network: Network = parsed.isFriendly ? (parsed.isTestOnly ? "testnet" : "mainnet") : walletNetwork
  return { raw: parsed.raw, network, friendly: ton.friendly(parsed.address, network, false) }
}

export default function ViewerScreen() {
  const kernel = useKernel()
  const go = useGo()
  const enabled = useDevTools(kernel)
  useHideTabBar()
  useEffect(() => {
    if (!enabled) void go(mainRoute, { replace: true })
  }, [enabled, go])
  if (!enabled) return null
  return <Viewer />
}

function Viewer() {
  const t = useT(NS)
  const go = useGo()
  const ton = useTon()
  const [state] = useWallet()
  const search = useSearch({ strict: false }) as { readonly address?: string }
  const given = search.address?.trim() ?? ""
  const target = ton && given !== "" ? parseTarget(ton, given, state.walletNetwork) : undefined
  if (given !== "" && !ton) {
    return (
      <main className={styles.screen} aria-busy="true">
        <h1 className={styles.title}>{t("viewer.title")}</h1>
        <SkeletonList label={t("viewer.loading")} />
      </main>
    )
  }
  if (!target) {
    return <AddressForm key={given} initial={given} invalid={given !== ""} onView={(address) => void go(viewerRoute, { search: { address } })} />
  }
  return <ViewedWallet key={`${target.network}:${target.raw}`} target={target} ton={ton} onOther={() => void go(viewerRoute, { search: {} })} />
}

function AddressForm({ initial, invalid, onView }: { readonly initial: string; readonly invalid: boolean; readonly onView: (address: string) => void }) {
  const t = useT(NS)
  const ton = useTon()
  const [text, setText] = useState(initial)
  const [error, setError] = useState<string | undefined>(invalid ? t("viewer.invalid") : undefined)
  const submit = () => {
    const value = text.trim()
    if (value === "") {
      setError(t("viewer.required"))
      return
    }
    if (ton && !ton.parseAddress(value)) {
      setError(t("viewer.invalid"))
      return
    }
    onView(value)
  }
  return (
    <main className={styles.screen}>
      <h1 className={styles.title}>{t("viewer.title")}</h1>
      <p className={styles.lead}>{t("viewer.text")}</p>
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <TextField
          label={t("viewer.addressLabel")}
          value={text}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          hint={t("viewer.addressHint")}
          {...(error ? { error } : {})}
          onChange={(value) => {
            setError(undefined)
            setText(value)
          }}
        />
        <button type="submit" hidden />
      </form>
      <MainButton text={t("viewer.view")} disabled={!ton} onClick={submit} />
    </main>
  )
}

function ViewedWallet({
  target,
  ton,
  onOther,
}: {
  readonly target: { readonly raw: string; readonly network: Network; readonly friendly: string }
  readonly ton: TonModule | undefined
  readonly onOther: () => void
}) {
  const t = useT(NS)
  const kernel = useKernel()
  const chain = chainFor(kernel, target.network)
  const account = useChainQuery(tonSpaceKeys.viewer(target.network, target.raw, "account"), () => loadAccount(chain, target.raw))
  const jettons = useChainQuery(tonSpaceKeys.viewer(target.network, target.raw, "jettons"), () =>
    chain.getJettonBalances(target.raw, { currencies: ["ton", "usd"] }),
  )
  const events = useChainQuery(tonSpaceKeys.viewer(target.network, target.raw, "events"), () =>
    chain.getEvents(target.raw, { limit: HISTORY_PAGE_SIZE }).pipe(Effect.map((r): ReadonlyArray<AccountEvent> => r.events)),
  )
  const assets = useMemo(
    () => (account.data ? buildAssetList({ network: target.network, tonBalance: account.data.balance, jettons: jettons.data ?? [] }) : undefined),
    [account.data, jettons.data, target.network],
  )
  const history = events.data ? visibleEvents(events.data) : undefined
  const reload = () => {
    account.reload()
    jettons.reload()
    events.reload()
  }
  return (
    <main className={styles.screen}>
      <header className={styles.header}>
        <h1 className={styles.title}>{t("viewer.title")}</h1>
        <Badge tone="accent">{t("viewer.readOnly")}</Badge>
      </header>
      <p className={styles.mono} aria-label={t("viewer.viewing", { address: target.friendly })}>
        {shortAddress(target.friendly, 6, 6)}
      </p>
      <TonBalance balance={account.data?.balance} failed={account.error !== undefined} />
      <List>
        <Section header={t("assets.title")}>
          {!assets ? (
            account.error ? (
              <Placeholder
                kind="error"
                title={t("errors.load")}
                action={
                  <Button size="s" onClick={reload}>
                    {t("errors.retry")}
                  </Button>
                }
              />
            ) : (
              <SkeletonList label={t("assets.loading")} />
            )
          ) : (
            assets.map((asset) => (
              <Cell
                key={asset.address}
                title={asset.name}
                subtitle={asset.isScam ? t("assets.scam") : asset.risky ? t("assets.unverified") : asset.currency}
                after={`${formatDisplay(asset.balance, asset.decimals)} ${asset.currency}`}
              />
            ))
          )}
        </Section>
        <Section header={t("history.title")}>
          {!history ? (
            events.error ? (
              <Placeholder kind="error" title={t("errors.load")} />
            ) : (
              <SkeletonList label={t("history.loading")} />
            )
          ) : history.length === 0 ? (
            <Placeholder title={t("history.empty")} description={t("viewer.historyEmpty")} />
          ) : (
            history.map((event) => <EventRow readOnly key={event.event_id} event={event} raw={target.raw} network={target.network} ton={ton} />)
          )}
        </Section>
      </List>
      <MainButton look="secondary" text={t("viewer.other")} onClick={onOther} />
    </main>
  )
}
