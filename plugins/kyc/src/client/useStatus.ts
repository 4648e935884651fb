import { useQuery, useQueryClient } from "@tanstack/react-query"
import { useKernel } from "@wallet/kernel-react"
import type { StepResponse } from "../api.ts"
import { loadStatus, statusKey, STATUS_STALE_ON_STEPS_MS } from "./client.ts"

/** The verification status on the step screens (stale after 10 s, no refetch on focus: spec 3 §7.2). */
export function useKycStatus() {
  const kernel = useKernel()
  return useQuery({ queryKey: statusKey, queryFn: () => loadStatus(kernel), staleTime: STATUS_STALE_ON_STEPS_MS, refetchOnWindowFocus: false })
}

/** Puts a step's answer in the cache, so every screen reads the new status at once. */
export function useStatusAnswer() {
  const queries = useQueryClient()
  return (answer: StepResponse) => queries.setQueryData(statusKey, answer.data)
}
