// Development gallery of the kit (for a /trade/ui-gallery style route): every component in its
// states, in the current theme. Load it lazily: `const { UiGallery } = await loadUiGallery()`.
// Texts here are demo content, not product copy.
import { useState } from "react"
import { Avatar } from "../Avatar.tsx"
import { Badge, Banner } from "../Badge.tsx"
import { BottomSheet } from "../BottomSheet.tsx"
import { Button } from "../Button.tsx"
import { Cell } from "../Cell.tsx"
import { IconButton } from "../IconButton.tsx"
import { List, Section } from "../List.tsx"
import { AmountInput } from "../AmountInput.tsx"
import { Placeholder } from "../Placeholder.tsx"
import { Skeleton } from "../Skeleton.tsx"
import { SkeletonList } from "../SkeletonList.tsx"
import { useSnackbar } from "../Snackbar.tsx"
import { SegmentedControl } from "../SegmentedControl.tsx"
import { Spinner } from "../Spinner.tsx"
import { Switch } from "../Switch.tsx"
import { SearchInput, TextField } from "../TextField.tsx"
import { TabBar } from "../TabBar.tsx"
import type { PlatformStyle } from "../tabBarLayout.ts"

const Icon = ({ d }: { d: string }) => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path d={d} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
)
const WALLET = "M3 7h18v12H3zM3 7l3-4h12l3 4M16 13h2"
const TRADE = "M4 17l6-6 4 4 6-8"
const P2P = "M7 10a3 3 0 100-6 3 3 0 000 6zM17 20a3 3 0 100-6 3 3 0 000 6zM10 7h7v4M14 17H7v-4"
const HISTORY = "M12 7v5l3 3M21 12a9 9 0 11-3-6.7"

const renderStrip = ({ compact }: { compact: boolean }) => <span>{compact ? "2 orders" : "You have 2 active P2P orders"}</span>

export function UiGallery({ withSnackbars = true }: { withSnackbars?: boolean }) {
  const [sheet, setSheet] = useState(false)
  const [amount, setAmount] = useState("")
  const [tab, setTab] = useState("wallet")
  const [platform, setPlatform] = useState<PlatformStyle>("apple")
  const [strip, setStrip] = useState(true)
  const [loading, setLoading] = useState(false)
  const [space, setSpace] = useState<"crypto" | "ton">("crypto")
  const [notify, setNotify] = useState(true)
  const [tip, setTip] = useState(true)
  const [query, setQuery] = useState("")
  const [address, setAddress] = useState("")
  return (
    <div style={{ paddingBottom: "calc(var(--wk-tab-bar-height) + var(--wk-safe-area-bottom) + 16px)" }}>
      <List>
        <SegmentedControl
          aria-label="Space"
          stretched
          value={space}
          onChange={setSpace}
          items={[
            { value: "crypto", label: "Crypto" },
            { value: "ton", label: "TON" },
          ]}
        />
        <Banner
          tone="warning"
          title="TON space is temporarily unavailable"
          description="Your funds are safe. We are working on it."
          closeLabel="Hide"
          onClose={() => {}}
        />
        <Section header="Assets" footer="Rates update every minute.">
          <Cell
            before={<Avatar name="Toncoin" colorSeed={1} />}
            title="Toncoin"
            subtitle="$3.12 · +2.4%"
            after="12.5 TON"
            afterSubtitle="$39.00"
            chevron
            onClick={() => {}}
          />
          <Cell
            before={<Avatar name="Tether USD" colorSeed={5} />}
            title={
              <>
                Tether <Badge>NEW</Badge>
              </>
            }
            subtitle="$1.00"
            after="250 USDT"
            afterSubtitle="$250.00"
            chevron
            onClick={() => {}}
          />
          <Cell before={<Avatar name="Bitcoin" colorSeed={2} />} title="Bitcoin" subtitle="Temporarily unavailable" after="0 BTC" onClick={() => {}} disabled />
        </Section>
        <Section header="Loading">
          <SkeletonList label="Loading assets" />
        </Section>
        <Section header="Settings">
          <Cell title="Language" after="English" chevron onClick={() => {}} />
          <Cell id="gallery-notify" title="Market trends" after={<Switch aria-labelledby="gallery-notify" checked={notify} onChange={setNotify} />} />
          <Cell
            title="A very long explanation that wraps over several lines because multiline is set on this cell"
            multiline
            description="Description line, caption size, also wrapping when multiline is on."
          />
          <Cell title="Log out" tone="destructive" onClick={() => {}} />
        </Section>
        <Section header="Amount">
          <div style={{ padding: 16 }}>
            <AmountInput aria-label="Amount" value={amount} onChange={setAmount} decimals={9} currency="TON" size="l" decimalSeparator="," />
            <div style={{ marginTop: 8, color: "var(--wk-color-hint)", fontSize: 13 }}>value: {JSON.stringify(amount)}</div>
          </div>
        </Section>
        <SearchInput
          aria-label="Search"
          placeholder="Search"
          clearLabel="Clear"
          value={query}
          onChange={setQuery}
          icon={<Icon d="M11 18a7 7 0 100-14 7 7 0 000 14zM20 20l-4-4" />}
        />
        <TextField
          label="Address"
          placeholder="TON address"
          value={address}
          onChange={setAddress}
          hint="Only send TON and jettons to this address."
          error={address !== "" && address.length < 48 ? "Invalid address" : undefined}
        />
        <Section header="Buttons">
          <div style={{ display: "flex", flexDirection: "column", gap: 8, padding: 16 }}>
            <Button stretched loading={loading} loadingLabel="Loading" onClick={() => setLoading(true)}>
              Primary
            </Button>
            <Button stretched look="secondary" onClick={() => setLoading(false)}>
              Secondary
            </Button>
            <Button stretched look="destructive">
              Destructive
            </Button>
            <div style={{ display: "flex", gap: 8, alignItems: "center" }}>
              <Button look="plain" size="s">
                Plain
              </Button>
              <Button size="m" disabled>
                Disabled
              </Button>
              <IconButton aria-label="History" look="secondary">
                <Icon d={HISTORY} />
              </IconButton>
              <Spinner label="Loading" />
            </div>
          </div>
        </Section>
        <Section header="Sheets and snackbars">
          <Cell title="Open bottom sheet" onClick={() => setSheet(true)} chevron />
          {withSnackbars && <SnackbarCells />}
          <Cell title={`Tab bar: ${platform}`} onClick={() => setPlatform(platform === "apple" ? "material" : "apple")} />
          <Cell title={strip ? "Hide strip" : "Show strip"} onClick={() => setStrip(!strip)} />
        </Section>
        <Section header="Shapes">
          <div style={{ display: "flex", gap: 12, alignItems: "center", padding: 16 }}>
            <Skeleton shape="circle" width={48} />
            <Skeleton shape="rect" width={80} height={48} />
            <div style={{ flex: 1 }}>
              <Skeleton lines={3} />
            </div>
          </div>
        </Section>
        <Placeholder
          icon={<Icon d={HISTORY} />}
          title="No transactions yet"
          description="Your transactions will appear here."
          action={
            <Button look="secondary" size="m">
              Receive
            </Button>
          }
        />
      </List>
      <BottomSheet
        open={sheet}
        onClose={() => setSheet(false)}
        title="Choose network"
        closeLabel="Close"
        footer={
          <Button stretched onClick={() => setSheet(false)}>
            Done
          </Button>
        }
      >
        <Cell title="TON" subtitle="The Open Network" onClick={() => setSheet(false)} />
        <Cell title="TRC20" subtitle="Tron" onClick={() => setSheet(false)} />
      </BottomSheet>
      <TabBar
        aria-label="Sections"
        platformStyle={platform}
        activeId={tab}
        onSelect={setTab}
        onActiveTabPress={() => window.scrollTo({ top: 0, behavior: "smooth" })}
        strip={strip ? renderStrip : undefined}
        tooltip={tip ? { tabId: "trade", content: "Stocks and ETFs are here now", onDismiss: () => setTip(false) } : undefined}
        items={[
          { id: "wallet", label: "Wallet", icon: <Icon d={WALLET} /> },
          { id: "trade", label: "Trade", icon: <Icon d={TRADE} /> },
          { id: "p2p", label: "P2P", icon: <Icon d={P2P} />, badge: 2, badgeLabel: "2 active orders" },
          { id: "history", label: "History", icon: <Icon d={HISTORY} />, badge: true, badgeLabel: "new" },
        ]}
      />
    </div>
  )
}

function SnackbarCells() {
  const snackbar = useSnackbar()
  return (
    <>
      <Cell title="Show snackbar" onClick={() => snackbar.show({ text: "Address copied", icon: "✓" })} />
      <Cell
        title="Show duplicate-id snackbar (shakes)"
        onClick={() =>
          snackbar.show({ id: "net", text: "No connection", description: "Check your network and try again", action: { label: "Retry", onClick: () => {} } })
        }
      />
    </>
  )
}
