/**
 * View settings (spec 1 §3, §6; decision 0360): the user flags, banners and tooltips the server
 * keeps per user, read at start (prefetched 1 s after load, stale time 5 minutes) and merged with
 * the changes this device made. Saving goes to the server only with the `accessToSavingSettings`
 * permission (the server refuses otherwise); without it the change stays on this device.
 */
import { useQuery, type QueryClient } from "@tanstack/react-query"
import { Effect } from "effect"
import { Check, Http } from "@wallet/kernel"
import type { SaveViewSettingsRequest } from "@wallet/kernel/api"
import { useKernel, type Kernel } from "./context.tsx"
import { kernelQueryClient, PERSIST_META, registerPrefetch } from "./query.tsx"
import { STALE_TIME } from "./queryTimes.ts"

export interface ViewSettingsData {
  readonly userFlags: Readonly<Record<string, boolean>>
  readonly banners: Readonly<Record<string, boolean>>
}

export const VIEW_SETTINGS_QUERY_KEY = ["kernel", "view-settings"] as const

const ViewSettingsCheck = Check.struct({
  status: Check.literals(["SUCCESS"]),
  data: Check.struct({ userFlags: Check.record(Check.boolean), banners: Check.record(Check.boolean) }),
})

const LOCAL_KEY = "wallet:view-settings-local:"

type Local = { userFlags: Record<string, boolean>; banners: Record<string, boolean> }

const readLocal = (userId: number | undefined): Local => {
  try {
    const raw = userId === undefined ? null : localStorage.getItem(`${LOCAL_KEY}${userId}`)
    const parsed = raw ? (JSON.parse(raw) as Partial<Local>) : {}
    return { userFlags: { ...parsed.userFlags }, banners: { ...parsed.banners } }
  } catch {
    return { userFlags: {}, banners: {} }
  }
}

const writeLocal = (userId: number | undefined, local: Local) => {
  try {
    if (userId !== undefined) localStorage.setItem(`${LOCAL_KEY}${userId}`, JSON.stringify(local))
  } catch {
    // Storage unavailable: the change lasts for this page.
  }
}

/** Server values with this device's unsaved changes over them. */
const withLocal = (data: ViewSettingsData, local: Local): ViewSettingsData => ({
  userFlags: { ...data.userFlags, ...local.userFlags },
  banners: { ...data.banners, ...local.banners },
})

const fetchViewSettings = async (kernel: Kernel): Promise<ViewSettingsData> => {
  const reply = await kernel.runtime.runPromise(
    Effect.gen(function* () {
      const http = yield* Http
      return yield* http.json(ViewSettingsCheck, `${window.location.origin}/api/view-settings`)
    }),
  )
  return withLocal(reply.data, readLocal(kernel.user()?.id))
}

const options = (kernel: Kernel) => ({
  queryKey: VIEW_SETTINGS_QUERY_KEY,
  queryFn: () => fetchViewSettings(kernel),
  staleTime: STALE_TIME.viewSettings,
  meta: PERSIST_META,
})

/** The view settings (undefined while the first read runs or when it failed). */
export function useViewSettings(): ViewSettingsData | undefined {
  return useViewSettingsRead().data
}

/**
 * The view settings and whether their first read is over (answered, failed, or no user): a screen
 * whose layout they change (wallet main's rows, `expand_cryptocurrency`) shows it only then, so a
 * late answer cannot rearrange what the user already sees (decision 0007).
 */
export function useViewSettingsRead(): { readonly data: ViewSettingsData | undefined; readonly settled: boolean } {
  const kernel = useKernel()
  const signedIn = kernel.user() !== undefined
  const query = useQuery({ ...options(kernel), enabled: signedIn })
  return { data: query.data, settled: !signedIn || query.status !== "pending" }
}

/** A screen's start query (`registerStartQuery`) reads the view settings beside its own first request. */
export const prefetchViewSettings = (kernel: Kernel, client: QueryClient): Promise<void> | undefined =>
  kernel.user() ? client.prefetchQuery(options(kernel)) : undefined

/** Whether the user may save view settings on the server. */
export const canSaveViewSettings = (kernel: Pick<Kernel, "user">): boolean => kernel.user()?.permissions.accessToSavingSettings === true

/**
 * Saves changed user flags and banners: shown at once, sent to the server only with
 * `accessToSavingSettings`; without it (or when the call fails) kept on this device.
 * Resolves to where the change went.
 */
export async function saveViewSettings(
  kernel: Kernel,
  changes: SaveViewSettingsRequest,
  client: QueryClient = kernelQueryClient(kernel),
): Promise<"server" | "local"> {
  const userFlags = { ...changes.changedUserFlags } as Record<string, boolean>
  const banners = { ...changes.changedBanners }
  client.setQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY, (current) => (current ? withLocal(current, { userFlags, banners }) : current))
  if (canSaveViewSettings(kernel)) {
    const api = await kernel.api().catch(() => undefined)
    const saved = api ? await kernel.runtime.runPromise(api.viewSettings.save({ payload: changes }).pipe(Effect.option)).catch(() => undefined) : undefined
    if (saved && saved._tag === "Some") {
      client.setQueryData<ViewSettingsData>(VIEW_SETTINGS_QUERY_KEY, withLocal(saved.value.data, readLocal(kernel.user()?.id)))
      return "server"
    }
  }
  const userId = kernel.user()?.id
  const local = readLocal(userId)
  writeLocal(userId, { userFlags: { ...local.userFlags, ...userFlags }, banners: { ...local.banners, ...banners } })
  return "local"
}

// Spec 1 §9: the view settings are read at start (with the other start-time data).
registerPrefetch(prefetchViewSettings)
