/** The dev outbox page: plain HTML, no framework, no script. */
import type { OutboxMessage } from "./Outbox.ts"

import { escapeHtml } from "../html.ts"

export const renderOutboxPage = (messages: ReadonlyArray<OutboxMessage>, recipient: string | undefined): string => {
  const rows = messages
    .map(
      (message) => `<article data-id="${message.id}">
<h2>${escapeHtml(message.subject)}</h2>
<p class="meta">#${message.id} · ${message.channel} to <b data-recipient>${escapeHtml(message.recipient)}</b> · ${message.status} · ${escapeHtml((message.sentAt ?? message.createdAt).toISOString())}</p>
<pre>${escapeHtml(message.body)}</pre>
</article>`,
    )
    .join("\n")
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev outbox</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:760px;padding:16px;color:#222}
article{border:1px solid #ddd;border-radius:8px;padding:8px 16px;margin:12px 0}
h2{font-size:16px;margin:8px 0}.meta{color:#666;font-size:13px;margin:0}
pre{white-space:pre-wrap;font-size:15px}
</style>
</head>
<body>
<h1>Dev outbox</h1>
<p>Messages the server sent (newest first). Nothing leaves this machine in dev.</p>
<form method="get"><label>Recipient <input name="recipient" value="${escapeHtml(recipient ?? "")}" placeholder="someone@example.com"></label> <button>Filter</button> <a href="?">All</a></form>
${messages.length === 0 ? '<p id="empty">No messages yet.</p>' : rows}
</body>
</html>
`
}
