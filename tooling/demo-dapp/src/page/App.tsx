import { CHAIN, toUserFriendlyAddress, TonConnectButton, UserRejectsError, useTonConnectUI, useTonWallet, type Wallet } from "@tonconnect/ui-react"
import { useEffect, useId, useState } from "react"
import { DEMO_PATHS, type DemoConfig } from "../config.ts"

type Check = { readonly valid: true; readonly address: string } | { readonly valid: false; readonly reason: string }
type ProofState = { readonly kind: "none" } | { readonly kind: "checking" } | { readonly kind: "done"; readonly check: Check }
type Outcome =
  | { readonly kind: "idle" }
  | { readonly kind: "waiting"; readonly what: string }
  | { readonly kind: "sent"; readonly boc: string }
  | { readonly kind: "signed"; readonly signature: string; readonly check: Check }
  | { readonly kind: "error"; readonly message: string }

const postJson = async (path: string, body: unknown): Promise<Check> => {
  const response = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return (await response.json()) as Check
}

// instanceof, not the class name: the build minifies names.
const errorText = (error: unknown): string => {
  if (error instanceof UserRejectsError) return "Rejected in the wallet"
  return error instanceof Error ? error.message || "Unknown error" : String(error)
}

const proofOf = (wallet: Wallet) => {
  const item = wallet.connectItems?.tonProof
  return item && "proof" in item ? item.proof : undefined
}

export function App({ config }: { readonly config: DemoConfig }) {
  const [tonConnectUI] = useTonConnectUI()
  const wallet = useTonWallet()
  const [proof, setProof] = useState<ProofState>({ kind: "none" })
  const [outcome, setOutcome] = useState<Outcome>({ kind: "idle" })
  const resultId = useId()

  // ton_proof: the connect request carries a one-time payload from the demo server.
  useEffect(() => {
    let cancelled = false
    tonConnectUI.setConnectRequestParameters({ state: "loading" })
    void fetch(DEMO_PATHS.proofPayload, { method: "POST" })
      .then((response) => response.json() as Promise<{ payload: string }>)
      .then(({ payload }) => {
        if (!cancelled) tonConnectUI.setConnectRequestParameters({ state: "ready", value: { tonProof: payload } })
      })
      .catch(() => {
        if (!cancelled) tonConnectUI.setConnectRequestParameters(null)
      })
    return () => {
      cancelled = true
    }
  }, [tonConnectUI])

  // A fresh connection brings a proof: the demo server checks it independently.
  useEffect(
    () =>
      tonConnectUI.onStatusChange((next) => {
        if (next === null) {
          setProof({ kind: "none" })
          setOutcome({ kind: "idle" })
          return
        }
        const item = proofOf(next)
        if (item === undefined) return
        setProof({ kind: "checking" })
        postJson(DEMO_PATHS.proofCheck, {
          address: next.account.address,
          network: next.account.chain,
          publicKey: next.account.publicKey,
          walletStateInit: next.account.walletStateInit,
          proof: item,
        })
          .then((check) => setProof({ kind: "done", check }))
          .catch((error: unknown) => setProof({ kind: "done", check: { valid: false, reason: errorText(error) } }))
      }),
    [tonConnectUI],
  )

  const send = async () => {
    if (!wallet) return
    setOutcome({ kind: "waiting", what: "Confirm the transfer in your wallet…" })
    try {
      const result = await tonConnectUI.sendTransaction({
        validUntil: Math.floor(Date.now() / 1000) + 300,
        network: wallet.account.chain,
        from: wallet.account.address,
        messages: [{ address: config.receiver, amount: config.amount }],
      })
      setOutcome({ kind: "sent", boc: result.boc })
    } catch (error) {
      setOutcome({ kind: "error", message: errorText(error) })
    }
  }

  const sign = async () => {
    if (!wallet) return
    setOutcome({ kind: "waiting", what: "Sign the text in your wallet…" })
    try {
      const result = await tonConnectUI.signData({ type: "text", text: config.signText })
      const check = await postJson(DEMO_PATHS.signDataCheck, { walletStateInit: wallet.account.walletStateInit, result })
      setOutcome({ kind: "signed", signature: result.signature, check })
    } catch (error) {
      setOutcome({ kind: "error", message: errorText(error) })
    }
  }

  const address = wallet ? toUserFriendlyAddress(wallet.account.address, wallet.account.chain === CHAIN.TESTNET) : undefined
  const amountTon = `${Number(BigInt(config.amount) / 1_000_000n) / 1000} TON`

  return (
    <main>
      <header>
        <h1>Demo dApp</h1>
        <TonConnectButton />
      </header>

      <section aria-labelledby="account-title" className="card">
        <h2 id="account-title">Account</h2>
        {address === undefined ? (
          <p className="muted">Not connected. Press “Connect Wallet” and pick a wallet.</p>
        ) : (
          <dl>
            <dt>Address</dt>
            <dd data-testid="address" className="mono">
              {address}
            </dd>
            <dt>Network</dt>
            <dd>{wallet?.account.chain === CHAIN.TESTNET ? "testnet" : "mainnet"}</dd>
            <dt>Proof</dt>
            <dd data-testid="proof" role="status">
              {proof.kind === "none"
                ? "No proof (restored session)"
                : proof.kind === "checking"
                  ? "Checking…"
                  : proof.check.valid
                    ? "Proof verified"
                    : `Proof rejected: ${proof.check.reason}`}
            </dd>
          </dl>
        )}
      </section>

      <section aria-labelledby="actions-title" className="card">
        <h2 id="actions-title">Actions</h2>
        <p className="muted">
          Sends {amountTon} to <span className="mono">{config.receiver}</span>.
        </p>
        <div className="actions">
          <button type="button" onClick={() => void send()} disabled={!wallet || outcome.kind === "waiting"} aria-describedby={resultId}>
            Send {amountTon}
          </button>
          <button type="button" onClick={() => void sign()} disabled={!wallet || outcome.kind === "waiting"} aria-describedby={resultId}>
            Sign text
          </button>
        </div>
        <div id={resultId} data-testid="result" role="status" aria-live="polite" className="result">
          {outcome.kind === "idle" && <span className="muted">No request yet.</span>}
          {outcome.kind === "waiting" && <span>{outcome.what}</span>}
          {outcome.kind === "sent" && (
            <>
              <strong>Sent.</strong> BoC: <code data-testid="boc">{outcome.boc}</code>
            </>
          )}
          {outcome.kind === "signed" && (
            <>
              <strong>{outcome.check.valid ? "Signature verified." : `Signature rejected: ${outcome.check.reason}`}</strong> Signature:{" "}
              <code data-testid="signature">{outcome.signature}</code>
            </>
          )}
          {outcome.kind === "error" && (
            <span role="alert" data-testid="error">
              Error: {outcome.message}
            </span>
          )}
        </div>
      </section>
    </main>
  )
}
