/** Server-side address checks: friendly or raw in, raw out (`@ton/core` verifies the checksum). */
import { Address } from "@ton/core"

export interface NormalisedAddress {
  /** `wc:<64 hex>`, lower case. */
  readonly raw: string
  /** From a friendly address's test-only flag; undefined for a raw one. */
  readonly testOnly: boolean | undefined
}

/** The raw form of a friendly or raw TON address; undefined when it is neither (bad checksum, bad workchain). */
export const normaliseAddress = (input: string): NormalisedAddress | undefined => {
  const text = input.trim()
  try {
    if (Address.isRaw(text)) {
      const address = Address.parseRaw(text)
      return address.workChain === 0 || address.workChain === -1 ? { raw: address.toRawString(), testOnly: undefined } : undefined
    }
    if (Address.isFriendly(text)) {
      const parsed = Address.parseFriendly(text)
      const workChain = parsed.address.workChain
      return workChain === 0 || workChain === -1 ? { raw: parsed.address.toRawString(), testOnly: parsed.isTestOnly } : undefined
    }
  } catch {
    return undefined
  }
  return undefined
}
