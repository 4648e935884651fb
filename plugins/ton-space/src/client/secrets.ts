/**
 * Where the wallet's mnemonic lives on the client while the app runs. The holder keeps `Redacted`
 * values; plain words leave only through `wordsFor` / `wordsFrom` to the caller that signs or shows
 * them. Nothing here is written to storage, sent in a request or logged.
 *
 * Protection at rest is the KeyVault's job (`@wallet/kernel/keyvault`, loaded lazily): the words are
 * sealed there under the passcode (and a biometry slot when biometry is on); `wordsFrom` decides how
 * an operation gets them back (docs/decisions/0611-ton-space-keys.md, 0520).
 */
import { Redacted } from "effect"

export interface HeldSecret {
  readonly address: string
  readonly mnemonic: Redacted.Redacted<ReadonlyArray<string>>
}

let held: HeldSecret | null = null
const listeners = new Set<() => void>()

export const secrets = {
  hold: (address: string, words: ReadonlyArray<string>) => {
    held = { address, mnemonic: Redacted.make([...words], { label: "mnemonic" }) }
    listeners.forEach((l) => l())
  },
  current: (): HeldSecret | null => held,
  /** The words for `address`, or null when this session does not hold them. */
  wordsFor: (address: string): ReadonlyArray<string> | null => (held && held.address === address ? Redacted.value(held.mnemonic) : null),
  clear: () => {
    held = null
    listeners.forEach((l) => l())
  },
  subscribe: (listener: () => void) => {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
}

/** How a credential proof went, as `wordsFrom` needs it (the Passcode service's result, flattened). */
export type ProofOutcome =
  | { readonly kind: "passcode"; readonly passcode: string }
  | { readonly kind: "biometry"; readonly token: string }
  | { readonly kind: "none" | "remembered" }
  | { readonly kind: "cancelled" }
  | { readonly kind: "unavailable" }

/** A vault that could not be opened; `message` is the vault's (spec) text, never a secret. */
export class VaultOpenError extends Error {
  override readonly name = "VaultOpenError"
  constructor(
    message: string,
    readonly tag: string,
  ) {
    super(message)
  }
}

/** Failures of the biometry slot that a passcode opening can repair (no slot, another secret, a stale token). */
const BIOMETRY_REPAIRABLE = new Set(["CredsNotFound", "DecryptFailed", "BiometryFailed", "PasscodeRejected", "VaultCancelled"])

export interface WordsFromDeps {
  /** The words this session holds for the address. */
  readonly held: ReadonlyArray<string> | null
  /** Whether this device's vault holds the address's words. */
  readonly sealed: () => Promise<boolean>
  /** `Passcode.verify` with the operation; `need` is its `needCredential`. */
  readonly verify: (need: false | true | "passcode") => Promise<ProofOutcome>
  readonly open: (credential: { readonly passcode: string } | { readonly biometry: true; readonly token: string }) => Promise<ReadonlyArray<string> | null>
  /** Repairs the biometry slot after a passcode opening (the token of the proof that failed). */
  readonly addBiometry: (passcode: string, token: string) => Promise<unknown>
}

const tagOf = (error: unknown) => (typeof error === "object" && error !== null && "_tag" in error ? String((error as { _tag: unknown })._tag) : "Unknown")
const messageOf = (error: unknown) => {
  const message = typeof error === "object" && error !== null && "message" in error ? (error as { message: unknown }).message : undefined
  return typeof message === "string" && message !== "" ? message : "Failed to decrypt client side wallet creds"
}

/**
 * Decision 0520: the words for a protected operation.
 * - Held in memory: the user is still asked (any proof, the unlock window included).
 * - No vault for the address: null (the caller asks for the words), without asking anything.
 * - Else a credential (`needCredential`): a passcode opens the passcode slot; a biometry token opens
 *   the biometry slot without a second prompt. When the biometry slot cannot open (none yet, or the
 *   token changed since) the passcode is asked once, opens the vault, and the slot is re-made from
 *   the same prompt's token, so the next time biometry alone opens it.
 * A vault that fails otherwise throws `VaultOpenError` with the vault's text.
 */
export const wordsFrom = async (deps: WordsFromDeps): Promise<ReadonlyArray<string> | "cancelled" | null> => {
  if (deps.held) {
    const proof = await deps.verify(false)
    return proof.kind === "cancelled" ? "cancelled" : deps.held
  }
  if (!(await deps.sealed())) return null
  const open = async (credential: Parameters<WordsFromDeps["open"]>[0]) =>
    deps.open(credential).catch((error: unknown) => {
      throw new VaultOpenError(messageOf(error), tagOf(error))
    })
  const proof = await deps.verify(true)
  switch (proof.kind) {
    case "cancelled":
      return "cancelled"
    case "passcode":
      return open({ passcode: proof.passcode })
    case "biometry": {
      try {
        return await open({ biometry: true, token: proof.token })
      } catch (error) {
        if (!(error instanceof VaultOpenError) || !BIOMETRY_REPAIRABLE.has(error.tag)) throw error
      }
      const typed = await deps.verify("passcode")
      if (typed.kind === "cancelled") return "cancelled"
      if (typed.kind !== "passcode") return null
      const words = await open({ passcode: typed.passcode })
      if (words) await deps.addBiometry(typed.passcode, proof.token).catch(() => undefined)
      return words
    }
    default:
      return null
  }
}
