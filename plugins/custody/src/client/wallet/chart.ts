/** The asset page's price chart: the kernel's geometry (`chartGeometry`) over the contract's periods. */
import { ChartPeriod as ChartPeriodSchema, type ChartPeriod } from "../../api.ts"

/** The contract's periods: day, week, month, year, all. */
export const CHART_PERIODS: ReadonlyArray<ChartPeriod> = ChartPeriodSchema.literals
export type { ChartPeriod }
