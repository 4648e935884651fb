/** What the trusted-merchant and export screens decide without I/O (issue 21): error texts, delivery, the criteria's lines. */
import type { MerchantApplication, MerchantStatus } from "../api.ts"
import type { CriterionResult } from "../merchantRules.ts"
import type { ExportDelivery } from "../orderCsv.ts"
import { errorKey } from "./market.ts"

const OWN_ERRORS = ["merchant_criteria_not_met", "merchant_application_exists", "merchant_cooldown", "export_rate_limited"] as const

/** The i18n key of a refusal on these screens: their own codes under `merchant.errors`, the market's otherwise. */
export const merchantErrorKey = (code: string | undefined): string =>
  code !== undefined && (OWN_ERRORS as ReadonlyArray<string>).includes(code) ? `merchant.errors.${code}` : errorKey(code)

/** The Telegram client downloads the file when it has the method (Bot API 8.0); otherwise the bot sends the link. */
export const deliveryFor = (supportsDownload: boolean): ExportDelivery => (supportsDownload ? "download" : "message")

/** A criterion's two lines: what is required, and the user's value (`none` when there is no value yet). */
export const criterionText = (criterion: CriterionResult): { readonly title: string; readonly value: string } => ({
  title: `merchant.criteria.${criterion.id}.title`,
  value: criterion.value === null ? `merchant.criteria.${criterion.id}.none` : `merchant.criteria.${criterion.id}.value`,
})

/** The status line of the user's latest application (null: none yet). */
export const applicationKey = (status: MerchantStatus): string | null => (status.application === null ? null : `merchant.status.${status.application.status}`)

/** After a rejection or a revocation, whether the waiting time is over at `nowMs`. */
export const cooldownOver = (application: MerchantApplication | null, nowMs: number): boolean =>
  application === null || application.reapplyAt === null || Date.parse(application.reapplyAt) <= nowMs
