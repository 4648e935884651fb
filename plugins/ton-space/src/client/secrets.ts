/**
 * Where the wallet's mnemonic lives on the client while the app runs. Only `Redacted` values leave
 * this module; nothing here is written to storage, sent in a request or logged.
 *
 * Protection at rest is the KeyVault's job (`@wallet/kernel/keyvault`, loaded lazily): when the
 * device-key endpoints are available the words are sealed there under the passcode; until then they
 * are kept in memory only for this session (docs/decisions/0611-ton-space-keys.md).
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
