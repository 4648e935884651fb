/** Server-rendered HTML pieces shared by the dev pages and the operator console (no script, no framework). */

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!)

const DEV_TABLE_CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#222}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:4px 6px;vertical-align:top;text-align:left}
pre{white-space:pre-wrap;font-size:12px;margin:0;max-height:160px;overflow:auto}`

/**
 * A dev page listing stored rows: a title, an intro paragraph (trusted HTML), a user-id filter form,
 * then the table (`head` cells and `rows` are trusted HTML built with `escapeHtml`) or `empty`.
 */
export const devTablePage = (page: {
  readonly title: string
  readonly intro: string
  readonly head: ReadonlyArray<string>
  readonly rows: ReadonlyArray<string>
  readonly empty: string
}): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
${DEV_TABLE_CSS}
</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
<p>${page.intro}</p>
<form method="get"><label>User id <input name="userId" inputmode="numeric"></label> <button>Filter</button> <a href="?">All</a></form>
${
  page.rows.length === 0
    ? `<p id="empty">${escapeHtml(page.empty)}</p>`
    : `<table><thead><tr>${page.head.map((cell) => `<th>${cell}</th>`).join("")}</tr></thead><tbody>${page.rows.join("\n")}</tbody></table>`
}
</body>
</html>
`
