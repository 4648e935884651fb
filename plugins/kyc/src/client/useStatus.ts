import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel } from "@wallet/kernel-react"
import type { StepResponse } from "../api.ts"
import type { VerificationStatus } from "../api.ts"
import { loadStatus, statusKey, STATUS_POLL_MS, STATUS_STALE_ON_STEPS_MS } from "./client.ts"

/**
 * The verification status on the step screens (stale after 10 s, no refetch on focus: spec 3 §7.2).
 * `pollWhile` polls it every 2 s while it holds (spec 3 §4.2: a review or AWAIT_COMPLETION running).
 */
export function useKycStatus(options: { readonly pollWhile?: (status: VerificationStatus | undefined) => boolean } = {}) {
  const kernel = useKernel()
  const pollWhile = options.pollWhile
  return useQuery({
    queryKey: statusKey,
    queryFn: () => loadStatus(kernel),
    staleTime: STATUS_STALE_ON_STEPS_MS,
    refetchOnWindowFocus: false,
    ...(pollWhile
      ? { refetchInterval: (query: { state: { data: VerificationStatus | undefined } }) => (pollWhile(query.state.data) ? STATUS_POLL_MS : false) }
      : {}),
  })
}

/** Puts a step's answer in the cache, so every screen reads the new status at once. */
export function useStatusAnswer() {
  const queries = useQueryClient()
  return (answer: StepResponse) => queries.setQueryData(statusKey, answer.data)
}
