/**
 * Get-or-create a deposit address (spec 1 §4 "Asset creation", §9 delays): the call is retried while
 * the answer holds no address for the requested network, waiting the spec's delay before each try.
 */
import { addressRetryDelayMs, type DepositAddress, type GetOrCreateWalletResponse, type NetworkCodeValue } from "../../api.ts"

/** After this many tries the screen shows an error with retry (about 40 s of waiting). */
export const MAX_ADDRESS_ATTEMPTS = 15

export class AddressNotReady extends Error {
  override readonly name = "AddressNotReady"
}

export async function getOrCreateAddress(
  call: () => Promise<GetOrCreateWalletResponse>,
  network: NetworkCodeValue,
  sleep: (ms: number) => Promise<void>,
  maxAttempts = MAX_ADDRESS_ATTEMPTS,
): Promise<DepositAddress> {
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const delay = addressRetryDelayMs(attempt)
    if (delay > 0) await sleep(delay)
    const response = await call()
    const found = response.addresses.find((entry) => entry.network_code === network)
    if (found) return found
  }
  throw new AddressNotReady(`no ${network} address after ${maxAttempts} tries`)
}
