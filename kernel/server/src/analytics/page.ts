/** The dev analytics page: the latest events as plain HTML, no script. */
import type { StoredEventJson } from "./api.ts"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!)

export const renderAnalyticsPage = (events: ReadonlyArray<StoredEventJson>): string => {
  const rows = events
    .map(
      (event) => `<tr data-id="${event.id}">
<td>${event.id}</td><td>${escapeHtml(event.receivedAt)}</td><td>${escapeHtml(event.stream)}</td><td><b>${escapeHtml(event.name)}</b>${event.isPostponed ? " (postponed)" : ""}</td>
<td>${escapeHtml(event.userId ?? "-")}</td><td><code>${escapeHtml(event.traceId.slice(0, 8))}</code></td>
<td><pre>${escapeHtml(JSON.stringify(event.eventProperties, null, 1))}</pre></td>
</tr>`,
    )
    .join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev analytics</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;font-size:12px;margin:0;max-height:160px;overflow:auto}
</style>
</head>
<body>
<h1>Dev analytics</h1>
<p>The latest events the gateway stored (newest first), secrets already scrubbed. JSON: <a href="/api/dev/analytics">/api/dev/analytics</a>.</p>
<form method="get"><label>User id <input name="userId" inputmode="numeric"></label> <button>Filter</button> <a href="?">All</a></form>
${events.length === 0 ? '<p id="empty">No events yet.</p>' : `<table><thead><tr><th>#</th><th>received</th><th>stream</th><th>name</th><th>user</th><th>session</th><th>properties</th></tr></thead><tbody>${rows}</tbody></table>`}
</body>
</html>
`
}
