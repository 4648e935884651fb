import { HttpError } from "@wallet/kernel"
import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { KycApi, type EddState, type PartnerTokenResponse, type TermsResponse, type StepResponse, type VerificationStatus } from "../api.ts"

const client = clientPerKernel(makeApiClient(KycApi))

/** Spec 3 §7.2, §9: the status is stale after 10 s on the steps screen and 60 s elsewhere. */
export const statusKey = ["kyc", "status"] as const
export const STATUS_STALE_ON_STEPS_MS = 10_000
export const STATUS_STALE_MS = 60_000
/** Spec 3 §4.2: polled every 2 s while AWAIT_COMPLETION. */
export const STATUS_POLL_MS = 2_000

export const loadStatus = async (kernel: Kernel): Promise<VerificationStatus> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.status())
}

export const setName = async (kernel: Kernel, firstName: string, lastName: string): Promise<StepResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.setName({ payload: { firstName, lastName } }))
}

export const setCountry = async (kernel: Kernel, country: string): Promise<StepResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.setCountry({ payload: { country } }))
}

export const setPhone = async (kernel: Kernel, contactRawData: string): Promise<StepResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.setPhone({ payload: { contactRawData } }))
}

/** The server's refusal code of a failed step (`contact_invalid`, `step_not_open`, `invalid_request` …). */
export const refusalCode = (error: unknown): string | undefined => {
  // A plain HTTP failure (the upload helper's) carries the server's code in its body; its own code is the transport's.
  if (error instanceof HttpError) return error.serverCode ?? error.code
  const code = error !== null && typeof error === "object" ? (error as { code?: unknown }).code : undefined
  return typeof code === "string" ? code : undefined
}

/** Spec 3 §4.2: a consent the user gives (CS_001 lifts a BR_001 block, CS_002 a partial block). */
export const giveConsent = async (kernel: Kernel, consent: "CS_001" | "CS_002"): Promise<StepResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.consent({ payload: { consent } }))
}

/** An access token for the partner's frame at `level` (single use: the frame asks again when it needs one). */
export const partnerToken = async (kernel: Kernel, level: "LEVEL_2" | "LEVEL_3"): Promise<PartnerTokenResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.partnerToken({ payload: { level } }))
}

/** The frame said the documents were sent: the server reads the partner's status now; the new status. */
export const partnerSubmitted = async (kernel: Kernel): Promise<VerificationStatus> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.partnerSubmitted())
}

/** The evidence staff asked for (decision 0940). */
export const eddKey = ["kyc", "edd"] as const

export const loadEdd = async (kernel: Kernel): Promise<EddState> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.edd())
}

export const removeEvidence = async (kernel: Kernel, id: number): Promise<EddState> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.removeEvidence({ payload: { id } }))
}

export const submitEdd = async (kernel: Kernel): Promise<EddState> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.submitEdd())
}

/** Spec 3 §7.4: the terms of service accepted (CS_003); the user is no longer new. */
export const acceptTerms = async (kernel: Kernel): Promise<TermsResponse> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kyc.acceptTerms())
}
