/**
 * The change flow's order (decision 0530): every plugin's `beforePasscodeChange` hook runs with the
 * current and the new passcode BEFORE the server changes it (while `current` still opens what was
 * sealed under it), then the server call. A hook's failure is reported and never blocks the change.
 */
import type { ComposedHook, PasscodeChangeHookModule, PasscodeChangeInput } from "@wallet/kernel"

/** Where a failing passcode hook is reported: an event name and primitive, non-secret fields. */
export type PasscodeHookWarn = (message: string, fields: Readonly<Record<string, string>>) => void

const errorName = (error: unknown) =>
  typeof error === "object" && error !== null
    ? String((error as { _tag?: unknown; name?: unknown })._tag ?? (error as { name?: unknown }).name ?? "Error")
    : typeof error

/**
 * Runs every `beforePasscodeChange` hook (composition order, one after the other) with the current
 * and the next passcode, BEFORE the provider asks the server to change it. A hook that fails to load
 * or throws is reported through `warn` (plugin id and error name only: never the passcodes or the
 * error's message) and the next one still runs. Resolves the ids of the plugins whose hook failed.
 */
export const runBeforePasscodeChange = async <Host>(
  hooks: ReadonlyArray<ComposedHook<PasscodeChangeHookModule<Host>>>,
  input: PasscodeChangeInput,
  host: Host,
  warn: PasscodeHookWarn = (message, fields) => console.warn(message, fields),
): Promise<ReadonlyArray<string>> => {
  const failed: Array<string> = []
  for (const hook of hooks) {
    try {
      await (await hook.load()).default(input, host)
    } catch (error) {
      failed.push(hook.pluginId)
      warn("[passcode] beforePasscodeChange hook failed", { plugin: hook.pluginId, error: errorName(error) })
    }
  }
  return failed
}

/**
 * Whether any plugin holds something sealed under the passcode on this device (hooks'
 * `sealedUnderPasscode`); a hook that fails to answer counts as false (reported like above).
 */
export const sealedUnderPasscode = async <Host>(
  hooks: ReadonlyArray<ComposedHook<PasscodeChangeHookModule<Host>>>,
  host: Host,
  warn: PasscodeHookWarn = (message, fields) => console.warn(message, fields),
): Promise<boolean> => {
  for (const hook of hooks) {
    try {
      const check = (await hook.load()).sealedUnderPasscode
      if (check && (await check(host))) return true
    } catch (error) {
      warn("[passcode] sealedUnderPasscode hook failed", { plugin: hook.pluginId, error: errorName(error) })
    }
  }
  return false
}

export interface ChangeWithHooksDeps<Host, A> {
  readonly hooks: ReadonlyArray<ComposedHook<PasscodeChangeHookModule<Host>>>
  readonly host: Host
  readonly current: string
  readonly next: string
  /** The server's passcode update. */
  readonly update: () => Promise<A>
  /** Hooks already run for a `next` in this flow (a retried save does not re-key twice). */
  readonly ran?: Set<string>
  readonly warn?: PasscodeHookWarn
}

export const changeWithHooks = async <Host, A>(deps: ChangeWithHooksDeps<Host, A>): Promise<A> => {
  if (!deps.ran?.has(deps.next)) {
    await runBeforePasscodeChange(deps.hooks, { current: deps.current, next: deps.next }, deps.host, deps.warn).catch(() => undefined)
    deps.ran?.add(deps.next)
  }
  return deps.update()
}

/** Whether the reset screen must warn (a plugin sealed something under the passcode it cannot carry over). */
export const resetLosesSealed = <Host>(hooks: ReadonlyArray<ComposedHook<PasscodeChangeHookModule<Host>>>, host: Host): Promise<boolean> =>
  hooks.length === 0 ? Promise.resolve(false) : sealedUnderPasscode(hooks, host).catch(() => false)
