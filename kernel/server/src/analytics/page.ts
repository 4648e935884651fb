/** The dev analytics page: the latest events as plain HTML, no script. */
import type { StoredEventJson } from "./api.ts"
import { devTablePage, escapeHtml } from "../html.ts"

export const renderAnalyticsPage = (events: ReadonlyArray<StoredEventJson>): string =>
  devTablePage({
    title: "Dev analytics",
    intro: 'The latest events the gateway stored (newest first), secrets already scrubbed. JSON: <a href="/api/dev/analytics">/api/dev/analytics</a>.',
    head: ["#", "received", "stream", "name", "user", "session", "properties"],
    rows: events.map(
      (event) => `<tr data-id="${event.id}">
<td>${event.id}</td><td>${escapeHtml(event.receivedAt)}</td><td>${escapeHtml(event.stream)}</td><td><b>${escapeHtml(event.name)}</b>${event.isPostponed ? " (postponed)" : ""}</td>
<td>${escapeHtml(event.userId ?? "-")}</td><td><code>${escapeHtml(event.traceId.slice(0, 8))}</code></td>
<td><pre>${escapeHtml(JSON.stringify(event.eventProperties, null, 1))}</pre></td>
</tr>`,
    ),
    empty: "No events yet.",
  })
