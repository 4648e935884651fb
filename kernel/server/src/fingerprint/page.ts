/** The dev fingerprints page: the latest stored device fingerprints as plain HTML, no script. */
import type { StoredFingerprintJson } from "./api.ts"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!)

export const renderFingerprintPage = (fingerprints: ReadonlyArray<StoredFingerprintJson>): string => {
  const rows = fingerprints
    .map(
      (row) => `<tr data-id="${row.id}">
<td>${escapeHtml(row.updatedAt)}</td><td>${escapeHtml(row.userId)}</td><td><code>${escapeHtml(row.deviceUuid)}</code></td>
<td><code>${escapeHtml(row.visitorId)}</code></td><td><code>${escapeHtml(row.thumbmark)}</code> ${escapeHtml(row.version)}</td><td>${row.sends}</td>
<td><pre>${escapeHtml(JSON.stringify(row.components, null, 1))}</pre></td>
</tr>`,
    )
    .join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev fingerprints</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;font-size:12px;margin:0;max-height:160px;overflow:auto}
</style>
</head>
<body>
<h1>Dev fingerprints</h1>
<p>The latest device fingerprints (one row per user and device, newest send first), components scrubbed. JSON: <a href="/api/dev/fingerprints">/api/dev/fingerprints</a>. Events: <a href="/api/dev/analytics.html">/api/dev/analytics.html</a>.</p>
<form method="get"><label>User id <input name="userId" inputmode="numeric"></label> <button>Filter</button> <a href="?">All</a></form>
${fingerprints.length === 0 ? '<p id="empty">No fingerprints yet.</p>' : `<table><thead><tr><th>last sent</th><th>user</th><th>device uuid</th><th>visitor id</th><th>thumbmark</th><th>sends</th><th>components</th></tr></thead><tbody>${rows}</tbody></table>`}
</body>
</html>
`
}
