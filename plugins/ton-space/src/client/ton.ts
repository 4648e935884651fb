/** The lazily loaded TON module: one import shared by every screen that signs or derives. */
export type TonModule = typeof import("../ton/wallet.ts")

let loading: Promise<TonModule> | undefined
export const loadTon = (): Promise<TonModule> =>
  (loading ??= import("../ton/wallet.ts").catch((error: unknown) => {
    loading = undefined
    throw error
  }))

import { useEffect, useState } from "react"

/** The TON module once loaded (starts loading on first use); undefined until then. */
export function useTon(): TonModule | undefined {
  const [ton, setTon] = useState<TonModule | undefined>(undefined)
  useEffect(() => {
    let alive = true
    void loadTon().then(
      (m) => alive && setTon(m),
      () => undefined,
    )
    return () => {
      alive = false
    }
  }, [])
  return ton
}
