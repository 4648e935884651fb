/**
 * The operator console's pages: server-rendered HTML, no script, one same-origin stylesheet (the
 * CSP allows nothing else), native forms and labels (keyboard accessible), English only (staff).
 */
import { DEGRADATION_FLAGS, EXPERIMENTS } from "@wallet/kernel"
import type { AuditEntry, Overview } from "./service.ts"

import { escapeHtml } from "../html.ts"

export { escapeHtml }

export const OPS_CSS = `body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:980px;padding:16px;color:#1d1d1f;background:#fff}
h1{font-size:22px}h2{font-size:18px;margin-top:28px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:6px 8px;text-align:left;vertical-align:middle}
form.inline{display:inline}button,input,select{font:inherit;padding:4px 10px}
button:focus-visible,input:focus-visible,select:focus-visible,a:focus-visible{outline:3px solid #2b6cb0;outline-offset:2px}
.on{color:#17643a;font-weight:600}.off{color:#a32020;font-weight:600}.muted{color:#666}
.error{border:1px solid #a32020;background:#fdeaea;padding:8px 12px;border-radius:6px}
.notice{border:1px solid #17643a;background:#e8f6ed;padding:8px 12px;border-radius:6px}
nav{display:flex;gap:16px;align-items:center}pre{margin:0;white-space:pre-wrap}
`

export const layout = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Wallet operator console</title>
<link rel="stylesheet" href="/ops/ops.css">
</head>
<body>
${body}
</body>
</html>
`

export const renderLogin = (error?: string): string =>
  layout(
    "Sign in",
    `<main>
<h1>Operator console</h1>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/ops/login">
<p><label for="name">Name</label><br><input id="name" name="name" autocomplete="username" required autofocus></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>
</main>`,
  )

const state = (value: boolean | undefined) =>
  value === undefined ? `<span class="muted">not set</span>` : value ? `<span class="on">on</span>` : `<span class="off">off</span>`

export const hidden = (name: string, value: string | number | undefined) =>
  value === undefined ? "" : `<input type="hidden" name="${name}" value="${escapeHtml(String(value))}">`

const flagButtons = (csrf: string, key: string, userId: number | undefined, withClear: boolean) => {
  const scope = userId === undefined ? "for all" : `for user ${userId}`
  return `<form class="inline" method="post" action="/ops/flags">${hidden("csrf", csrf)}${hidden("key", key)}${hidden("user", userId)}
<button name="value" value="on" aria-label="Turn ${escapeHtml(key)} on ${scope}">On</button>
<button name="value" value="off" aria-label="Turn ${escapeHtml(key)} off ${scope}">Off</button>${
    withClear ? `\n<button name="value" value="clear" aria-label="Clear ${escapeHtml(key)} ${scope}">Clear</button>` : ""
  }</form>`
}

const bucketForm = (csrf: string, name: string, variants: ReadonlyArray<string>, current: string | undefined, userId: number | undefined) => {
  const scope = userId === undefined ? "for all" : `for user ${userId}`
  const id = `bucket-${name}-${userId ?? "all"}`
  return `<form class="inline" method="post" action="/ops/buckets">${hidden("csrf", csrf)}${hidden("name", name)}${hidden("user", userId)}
<label for="${escapeHtml(id)}" class="muted">Bucket of ${escapeHtml(name)} ${scope}</label>
<select id="${escapeHtml(id)}" name="bucket"><option value="clear"${current === undefined ? " selected" : ""}>not set</option>${variants
    .map((v) => `<option value="${v}"${current === v ? " selected" : ""}>${v}</option>`)
    .join("")}</select>
<button type="submit" aria-label="Save the bucket of ${escapeHtml(name)} ${scope}">Save</button></form>`
}

const auditTable = (entries: ReadonlyArray<AuditEntry>) =>
  entries.length === 0
    ? `<p class="muted" id="audit-empty">No changes yet.</p>`
    : `<table id="audit"><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>
${entries
  .map(
    (e) =>
      `<tr data-audit-id="${e.id}"><td>${escapeHtml(e.at.toISOString())}</td><td>${escapeHtml(e.actor)}</td><td>${escapeHtml(`${e.action}: ${e.target}`)}</td><td><pre>${escapeHtml(JSON.stringify(e.before))}</pre></td><td><pre>${escapeHtml(JSON.stringify(e.after))}</pre></td></tr>`,
  )
  .join("\n")}
</tbody></table>`

/** A server plugin's operator page, linked from the console's navigation (`/ops/<plugin id>`). */
export interface OperatorLink {
  readonly href: string
  readonly label: string
}

/** The console's navigation: the console, the plugins' pages, the audit log, sign out. */
export const operatorNav = (operator: string, csrf: string, links: ReadonlyArray<OperatorLink>, current: string): string =>
  `<header><nav><strong>Operator console</strong><span class="muted">Signed in as ${escapeHtml(operator)}</span>${[
    { href: "/ops", label: "Flags, banners and experiments" },
    ...links,
    { href: "/ops/audit", label: "Audit log" },
  ]
    .map((link) =>
      link.href === current ? `<span aria-current="page">${escapeHtml(link.label)}</span>` : `<a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a>`,
    )
    .join("")}
<form class="inline" method="post" action="/ops/logout">${hidden("csrf", csrf)}<button type="submit">Sign out</button></form></nav></header>`

export const renderConsole = (input: {
  readonly links?: ReadonlyArray<OperatorLink>
  readonly operator: string
  readonly csrf: string
  readonly overview: Overview
  readonly audit: ReadonlyArray<AuditEntry>
  readonly notice?: string | undefined
  readonly error?: string | undefined
}): string => {
  const { overview, csrf } = input
  const user = overview.user
  const banners = new Set<string>(DEGRADATION_FLAGS)
  const flagRows = (filter: (name: string) => boolean) =>
    overview.flags
      .filter((f) => filter(f.name))
      .map(
        (f) => `<tr data-flag="${escapeHtml(f.name)}"><th scope="row">${escapeHtml(f.name)}<br><span class="muted">${escapeHtml(f.description)}</span></th>
<td>${state(f.enabled)} ${flagButtons(csrf, f.name, undefined, false)}</td>${
          user ? `<td>${state(user.flags[f.name])} ${flagButtons(csrf, f.name, user.id, true)}</td>` : ""
        }</tr>`,
      )
      .join("\n")
  const head = `<thead><tr><th scope="col">Name</th><th scope="col">For all</th>${user ? `<th scope="col">User ${user.id}</th>` : ""}</tr></thead>`
  const experimentRows = EXPERIMENTS.map(
    (e) => `<tr data-experiment="${e.name}"><th scope="row">${e.name}<br><span class="muted">${escapeHtml(e.description)}</span></th>
<td>${bucketForm(csrf, e.name, e.variants, overview.bucketsForAll[e.name], undefined)}</td>${
      user
        ? `<td>${bucketForm(csrf, e.name, e.variants, user.buckets[e.name], user.id)} <span class="muted">effective: ${user.effective[e.name]}</span></td>`
        : ""
    }</tr>`,
  ).join("\n")
  return layout(
    "Flags, banners and experiments",
    `${operatorNav(input.operator, csrf, input.links ?? [], "/ops")}
<main>
<h1>Flags, banners and experiments</h1>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ""}${input.notice ? `<p class="notice" role="status">${escapeHtml(input.notice)}</p>` : ""}
<form method="get" action="/ops"><label for="user">User id</label> <input id="user" name="user" inputmode="numeric" value="${user ? user.id : ""}"> <button type="submit">Show user</button>${
      user ? ` <a href="/ops">All users only</a>` : ""
    }</form>
<p class="muted">A user's own value wins over the value for all. The app picks changes up within a minute.</p>
<h2 id="banners">Degradation banners</h2>
<table aria-labelledby="banners">${head}<tbody>${flagRows((n) => banners.has(n))}</tbody></table>
<h2 id="flags">Feature flags</h2>
<table aria-labelledby="flags">${head}<tbody>${flagRows((n) => !banners.has(n))}</tbody></table>
<h2 id="experiments">Experiments</h2>
<table aria-labelledby="experiments"><thead><tr><th scope="col">Experiment</th><th scope="col">For all</th>${user ? `<th scope="col">User ${user.id}</th>` : ""}</tr></thead><tbody>${experimentRows}</tbody></table>
<h2 id="recent">Recent changes</h2>
${auditTable(input.audit)}
</main>`,
  )
}

export const renderAudit = (operator: string, entries: ReadonlyArray<AuditEntry>, links: ReadonlyArray<OperatorLink> = [], csrf = ""): string =>
  layout(
    "Audit log",
    `${operatorNav(operator, csrf, links, "/ops/audit")}
<main><h1>Audit log</h1>
${auditTable(entries)}
</main>`,
  )
