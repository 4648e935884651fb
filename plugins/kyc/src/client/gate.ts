/**
 * The kyc plugin's `afterStart` hook (spec 3 §4.2, §6): a user whose level is BLOCKED is sent to the
 * blocked screen from any screen, and a user whose account staff hold for evidence (EDD, decision
 * 0940) to the hold's screen, unless staff gave the bypass permission. Verification loads only
 * for a signed-in user, and only when the session's permissions hint at a block (a blocked user holds
 * none), so nobody else pays a request for it. The screens of verification and settings stay open.
 */
import type { QueryClient } from "@tanstack/react-query"
import { kernelQueryClient, type Kernel } from "@wallet/kernel-react"
import type { VerificationStatus } from "../api.ts"
import { loadStatus, statusKey, STATUS_STALE_MS } from "./client.ts"

export const KYC_STATUS_REQUIRED = "Requires kyc status be loaded before using"

/** The status a consumer reads after it was loaded; reading it before throws (spec 3 §6). */
export const requireKycStatus = (client: QueryClient): VerificationStatus => {
  const status = client.getQueryData<VerificationStatus>(statusKey)
  if (status === undefined) throw new Error(KYC_STATUS_REQUIRED)
  return status
}

/** Paths a blocked user may still open: verification (the way out of the block) and settings. */
export const openWhileBlocked = (pathname: string): boolean =>
  pathname === "/kyc" || pathname.startsWith("/kyc/") || pathname === "/settings" || pathname.startsWith("/settings/")

/** Where this status sends the user at `pathname`: the blocked screen, the EDD hold's screen, or nowhere. */
export const gateTarget = (status: VerificationStatus, pathname: string): "/kyc/blocked" | "/kyc/edd-blocked" | undefined => {
  if (openWhileBlocked(pathname) || status.bypassBlockedScreen) return undefined
  if (status.level === "BLOCKED") return "/kyc/blocked"
  if (status.edd !== null && status.edd.blocking && status.edd.status !== "approved") return "/kyc/edd-blocked"
  return undefined
}

/** Whether this status sends the user at `pathname` to the blocked screen. */
export const sendsToBlocked = (status: VerificationStatus, pathname: string): boolean => gateTarget(status, pathname) === "/kyc/blocked"

export interface GateHost {
  readonly kernel: Kernel
  readonly navigate: (options: object) => unknown
  readonly onNavigate?: (listener: (pathname: string) => void) => () => void
}

export default async function kycGate(host: GateHost): Promise<void> {
  const user = host.kernel.user()
  // A blocked user holds no permission, an EDD hold closes withdrawals: anyone with both is neither.
  if (user === undefined || (user.permissions.canReceive && user.permissions.canWithdrawOuter)) return
  const client = kernelQueryClient(host.kernel)
  try {
    await client.fetchQuery({ queryKey: statusKey, queryFn: () => loadStatus(host.kernel), staleTime: STATUS_STALE_MS })
  } catch {
    // The status could not be read: the server still refuses what a block closes.
    return
  }
  const check = (pathname: string) => {
    const target = gateTarget(requireKycStatus(client), pathname)
    if (target !== undefined) void host.navigate({ to: target, replace: true })
  }
  check(window.location.pathname)
  host.onNavigate?.(check)
}
