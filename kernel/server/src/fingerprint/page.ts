/** The dev fingerprints page: the latest stored device fingerprints as plain HTML, no script. */
import type { StoredFingerprintJson } from "./api.ts"
import { devTablePage, escapeHtml } from "../html.ts"

export const renderFingerprintPage = (fingerprints: ReadonlyArray<StoredFingerprintJson>): string =>
  devTablePage({
    title: "Dev fingerprints",
    intro:
      'The latest device fingerprints (one row per user and device, newest send first), components scrubbed. JSON: <a href="/api/dev/fingerprints">/api/dev/fingerprints</a>. Events: <a href="/api/dev/analytics.html">/api/dev/analytics.html</a>.',
    head: ["last sent", "user", "device uuid", "visitor id", "thumbmark", "sends", "components"],
    rows: fingerprints.map(
      (row) => `<tr data-id="${row.id}">
<td>${escapeHtml(row.updatedAt)}</td><td>${escapeHtml(row.userId)}</td><td><code>${escapeHtml(row.deviceUuid)}</code></td>
<td><code>${escapeHtml(row.visitorId)}</code></td><td><code>${escapeHtml(row.thumbmark)}</code> ${escapeHtml(row.version)}</td><td>${row.sends}</td>
<td><pre>${escapeHtml(JSON.stringify(row.components, null, 1))}</pre></td>
</tr>`,
    ),
    empty: "No fingerprints yet.",
  })
