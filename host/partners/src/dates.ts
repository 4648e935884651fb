/**
 * Sumsub's date formats, always UTC: `2024-05-01 12:30:05` (applicant and file dates),
 * `2024-05-01 12:30:05+0000` (review dates) and `2024-05-01 12:30:05.123` (webhook timestamps).
 */

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

/** yyyy-MM-dd HH:mm:ss */
export const sumsubDate = (ms: number): string => {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}

/** yyyy-MM-dd HH:mm:ss+0000 */
export const sumsubReviewDate = (ms: number): string => `${sumsubDate(ms)}+0000`

/** yyyy-MM-dd HH:mm:ss.SSS */
export const sumsubDateMs = (ms: number): string => `${sumsubDate(ms)}.${pad(new Date(ms).getUTCMilliseconds(), 3)}`
