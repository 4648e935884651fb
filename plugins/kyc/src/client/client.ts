import { makeApiClient } from "@wallet/kernel/client"
import { clientPerKernel, runEffect, type Kernel } from "@wallet/kernel-react"
import { KycApi, type Note } from "../api.ts"

const client = clientPerKernel(makeApiClient(KycApi))

export const notesKey = ["kyc", "notes"] as const

export const loadNotes = async (kernel: Kernel): Promise<ReadonlyArray<Note>> => {
  const api = await client(kernel)
  return (await runEffect(kernel, api.kycNotes.list())).items
}

export const addNote = async (kernel: Kernel, text: string): Promise<Note> => {
  const api = await client(kernel)
  return runEffect(kernel, api.kycNotes.add({ payload: { text } }))
}
