/**
 * Custody's `main.actions` availability module (decision 0140): wallet main (the home plugin) loads
 * it in parallel with the accounts and asks it, per contributed action, whether the action can run
 * over all assets now, and to explain it when pressed while it cannot (spec 1 §4 popups).
 */
import type { SlotAvailability, SlotAvailabilityContext } from "@wallet/kernel"
import type { MainAvailabilityModule, MainSlotHost } from "@wallet/kernel-react"
import type { AccountsData } from "../../api.ts"
import { mainActionAvailability } from "../wallet/availability.ts"

/** What wallet main loaded: custody's accounts answer (the home plugin reads it through custody's contract). */
export interface MainLoaded {
  readonly accounts: AccountsData
}

type ActionName = keyof AccountsData["assets"][number]["actions"]

/** One button over all assets; stocks and ETFs have actions of their own (trade), not these. */
const availability = (action: { readonly id: string }, context: SlotAvailabilityContext<MainLoaded>): SlotAvailability =>
  mainActionAvailability(
    context.main.accounts.assets
      .filter((asset) => asset.category !== "stock" && asset.category !== "etf")
      .map((asset) => asset.actions[action.id as ActionName]),
    undefined,
    context.now,
  )
export default availability

/** The popup for an action that cannot run now: the date and time, restricted, or never (buy offers a deposit). */
export const explain = async (action: { readonly id: string; readonly label: string }, state: SlotAvailability, host: MainSlotHost): Promise<void> => {
  const { kernel } = host
  const t = (key: string, params?: Record<string, unknown>) => kernel.i18n.t(`custody:actions.${key}`, params)
  if (state.kind === "scheduled") {
    const language = kernel.i18n.language()
    const date = new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(state.at)
    const time = new Intl.DateTimeFormat(language, { timeStyle: "short" }).format(state.at)
    await kernel.telegram.popup({
      title: t("scheduledTitle"),
      message: t("scheduledText", { action: action.label, date, time }),
      buttons: [{ id: "ok", type: "ok" }],
    })
  } else if (state.kind === "restricted") {
    await kernel.telegram.popup({ title: t("restrictedTitle"), message: t("restrictedText"), buttons: [{ id: "ok", type: "ok" }] })
  } else if (action.id === "buy") {
    const choice = await kernel.telegram.popup({
      title: t("neverTitle"),
      message: t("mainBuyNeverText"),
      buttons: [
        { id: "cancel", type: "cancel" },
        { id: "ok", type: "ok" },
      ],
    })
    if (choice === "ok") await host.navigate({ to: "/choose-asset/receive" })
  } else if (state.kind === "never") {
    await kernel.telegram.popup({ title: t("neverTitle"), message: t("mainNeverText", { action: action.label }), buttons: [{ id: "ok", type: "ok" }] })
  }
}

// Checked against the kernel's module type (a wrong export fails to compile here, not at run time).
const _module: MainAvailabilityModule<MainLoaded> = { default: availability, explain }
void _module
