/**
 * Create, import and log out (spec 2 §4, §5). The words go from the TON module to the in-memory
 * holder (`secrets.ts`); the store gets only public data.
 */
import { Effect, Redacted } from "effect"
import { toHex, type NeedCredential, type PasscodeShape } from "@wallet/kernel"
import type { ChainShape } from "@wallet/kernel/chain"
import type { Kernel } from "@wallet/kernel-react"
import type { Network } from "../core/assets.ts"
import { chainFor, walletStore } from "./hooks.ts"
import { secrets, VaultOpenError, wordsFrom, type ProofOutcome } from "./secrets.ts"
import { initialWalletState } from "./store.ts"
import { loadTon, type TonModule } from "./ton.ts"

export const ADDRESS_MISMATCH = "Address does not match with mnemonic"
export const INVALID_MNEMONIC = "Invalid mnemonic"

/** A new 24-word wallet (W5R1 on the current network); the words are held for the backup screens. */
export const createWallet = async (kernel: Kernel): Promise<string> => {
  const ton = await loadTon()
  const store = walletStore(kernel)
  const network = store.get().walletNetwork
  const words = await ton.newMnemonic()
  const keys = await ton.keysOf(words)
  const identity = ton.identityOf(keys.publicKey, ton.DEFAULT_WALLET_CLASS, network)
  secrets.hold(identity.address, words)
  store.update((s) => ({
    ...s,
    address: identity.address,
    raw: identity.raw,
    publicKey: toHex(keys.publicKey),
    walletClass: identity.walletClass,
    setupComplete: false,
    manualBackupComplete: false,
  }))
  return identity.address
}

/**
 * Probe from newest to oldest (spec 2 §9): the first version whose account is active or holds TON;
 * W5R1 when none has any. The v5 beta is picked only with a TON balance.
 */
export const probeVersion = async (ton: TonModule, chain: ChainShape, publicKey: Buffer, network: Network) => {
  const identities = ton.identitiesOf(publicKey, network)
  const accounts = await Effect.runPromise(chain.getAccounts(identities.map((i) => i.raw)).pipe(Effect.orElseSucceed(() => [])))
  const found = identities.find((identity) => {
    const account = accounts.find((a) => a.address === identity.raw)
    if (!account) return false
    return identity.walletClass === "v5beta" ? account.balance > 0n : account.status === "active" || account.balance > 0n
  })
  return { chosen: found ?? identities[0]!, identities }
}

export class ImportError extends Error {}

/**
 * Import of 24 words. When this device already knows the wallet's address (keys missing after a
 * reload, forced-logout rule) the words must derive that address, else 'Address does not match
 * with mnemonic'.
 */
export const importWallet = async (kernel: Kernel, words: ReadonlyArray<string>): Promise<string> => {
  const ton = await loadTon()
  if (!(await ton.isValidMnemonic(words))) throw new ImportError(INVALID_MNEMONIC)
  const store = walletStore(kernel)
  const state = store.get()
  const network = state.walletNetwork
  const keys = await ton.keysOf(words)
  const { chosen, identities } = await probeVersion(ton, chainFor(kernel, network), keys.publicKey, network)
  let identity = chosen
  if (state.address !== undefined) {
    const expected = state.address
    const match = identities.find((i) => i.address === expected || ton.sameAddress(i.raw, expected))
    if (!match) throw new ImportError(ADDRESS_MISMATCH)
    identity = match
  }
  secrets.hold(identity.address, words)
  store.update((s) => ({
    ...s,
    address: identity.address,
    raw: identity.raw,
    publicKey: toHex(keys.publicKey),
    walletClass: identity.walletClass,
    setupComplete: true,
    // An imported wallet was backed up by whoever holds the words.
    manualBackupComplete: true,
    manualSetups: s.manualSetups.includes(identity.address) ? s.manualSetups : [...s.manualSetups, identity.address],
  }))
  return identity.address
}

const retry3 = async (step: () => Promise<void>) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step()
    } catch (error) {
      if (attempt >= 3) throw error
    }
  }
}

/**
 * Logout (spec 2 §4): 1. delete the server records (3 tries), 2. clear credentials (3 tries),
 * 3. reset the stores keeping manualSetups, 4. clear the stored value, 5. go to the wallet main.
 */
export const logout = async (
  kernel: Kernel,
  options: { readonly deleteServerRecords?: () => Promise<void>; readonly clearVault?: () => Promise<void>; readonly navigate: () => void },
) => {
  const store = walletStore(kernel)
  if (options.deleteServerRecords) await retry3(options.deleteServerRecords)
  await retry3(async () => {
    secrets.clear()
    await options.clearVault?.()
  })
  const { manualSetups } = store.get()
  store.update(() => ({ ...initialWalletState, manualSetups }))
  options.navigate()
}

/** The Passcode service's answer, flattened for `wordsFrom`. */
const verifyOutcome = async (kernel: Kernel, passcode: PasscodeShape, operation: string, need: NeedCredential): Promise<ProofOutcome> => {
  const result = await kernel.runtime.runPromise(Effect.result(passcode.verify({ operation, ...(need === false ? {} : { needCredential: need }) })))
  if (result._tag === "Failure") return { kind: result.failure._tag === "PasscodeCancelled" ? "cancelled" : "unavailable" }
  const proof = result.success
  return proof.kind === "biometry" ? { kind: "biometry", token: proof.biometryToken } : proof
}

/**
 * Seals the held words in the KeyVault under the passcode (after backup or import; decision 0520).
 * Sealing needs the passcode itself (`needCredential: "passcode"`): inside the unlock window the
 * passcode this page still holds counts, else the passcode screen asks (no biometry key). When
 * biometry is on for this device the vault also gets its biometry slot. Without a passcode on the
 * device (proof "none") the words stay in memory for this session only (decision 0611).
 */
export const protectHeld = async (kernel: Kernel, passcode: PasscodeShape): Promise<"sealed" | "memory" | "cancelled"> => {
  const held = secrets.current()
  if (!held) return "memory"
  const proof = await verifyOutcome(kernel, passcode, "ton_space_protect", "passcode")
  if (proof.kind === "cancelled") return "cancelled"
  if (proof.kind !== "passcode") return "memory"
  const ton = await loadTon()
  const words = Redacted.value(held.mnemonic)
  const keys = await ton.keysOf(words)
  const { sealWords, addBiometrySlot } = await import("./vault.ts")
  const sealed = await sealWords(kernel, held.address, words, toHex(keys.secretKey), proof.passcode).then(
    () => true,
    () => false,
  )
  if (!sealed) return "memory"
  // Best effort: without the slot the passcode still opens the vault (and a biometry proof repairs it).
  await addBiometrySlot(kernel, proof.passcode).catch(() => false)
  return "sealed"
}

/**
 * The words for a protected operation (send, show_mnemonic): see `wordsFrom` (decision 0520). The
 * words in memory after any proof; else the vault opened with a credential: the passcode, or the
 * biometry token of the same prompt (no passcode typed). Throws `VaultOpenError` (the vault's text).
 */
export const wordsForOperation = async (
  kernel: Kernel,
  passcode: PasscodeShape,
  operation: string,
  address: string,
): Promise<ReadonlyArray<string> | "cancelled" | null> => {
  const held = secrets.wordsFor(address)
  const vault = held ? undefined : await import("./vault.ts")
  const words = await wordsFrom({
    held,
    sealed: async () => (vault ? (await vault.vaultStatusFor(kernel, address)).sealed : false),
    verify: (need) => verifyOutcome(kernel, passcode, operation, need),
    open: async (credential) => (vault ? vault.openWords(kernel, address, credential) : null),
    addBiometry: async (typed, token) => vault?.addBiometrySlot(kernel, typed, token),
  })
  if (words !== null && words !== "cancelled" && !held) secrets.hold(address, words)
  return words
}

/**
 * What a screen shows when `wordsForOperation` failed because the vault did not open: the spec's
 * text of the vault error (e.g. 'Failed to decrypt client side wallet creds') after a translated
 * lead (`vaultOpen.failed`); undefined for any other failure (the screen's own message).
 */
export const vaultErrorText = (t: (key: string, options?: Record<string, unknown>) => string, error: unknown): string | undefined =>
  error instanceof VaultOpenError ? t("vaultOpen.failed", { reason: error.message }) : undefined
