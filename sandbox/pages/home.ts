/**
 * GET / — the sandbox home for people: how to connect, recent transactions, webhook deliveries with the
 * receiver's answers, the test cards and the terminals. Everything here is also JSON under /_sandbox/*.
 */
import { TEST_CARD_SCENARIOS, TEST_CARDS, type TestCardScenario } from "../core/config"
import type { SandboxContext } from "../core/context"
import { escapeHtml as e } from "../core/http"
import type { TransactionRecord } from "../core/types"
import { formatMoney } from "./provider-layout"
import type { Delivery } from "../webhooks/dispatcher"

const RECENT = 25

const SCENARIO_TEXT: Record<TestCardScenario, string> = {
  frictionless_approved: "Frictionless 3-D Secure (Y), approved",
  redirect_interactive: "Redirect to the simulator page: Approve (Y) or Decline (N)",
  form_submit_authenticated: "form_submit posting trans_status Y, approved",
  form_submit_declined: "form_submit posting trans_status N, declined",
  frictionless_insufficient_funds: "Authenticated (Y), declined: TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS",
}

const STYLE = `
:root{--ink:#1d2939;--muted:#667085;--line:#eaecf0;--ok:#067647;--okbg:#ecfdf3;--bad:#b42318;--badbg:#fef3f2;--wait:#b54708;--waitbg:#fffaeb}
*{box-sizing:border-box}body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:0;background:#f9fafb}
header{background:#101828;color:#fff;padding:16px 28px;display:flex;gap:16px;align-items:baseline;flex-wrap:wrap}
header h1{font-size:20px;margin:0}header code{color:#d0d5dd}main{padding:20px 28px;max-width:1280px}
section{background:#fff;border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin-bottom:18px;overflow-x:auto}
h2{font-size:16px;margin:0 0 12px}table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--muted);font-weight:600}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}a{color:#2f5bea}
.badge{display:inline-block;border-radius:999px;padding:1px 8px;font-size:12px;font-weight:600;background:#f2f4f7}
.APPROVED,.delivered{background:var(--okbg);color:var(--ok)}.DECLINED,.INVALID,.CANCELED,.SESSION_EXPIRED,.gave_up{background:var(--badbg);color:var(--bad)}
.PENDING,.CREATED,.retrying,.scheduled{background:var(--waitbg);color:var(--wait)}
.muted{color:var(--muted)}p.muted{font-size:13px}header .muted{color:#98a2b3}.empty{color:var(--muted);font-style:italic}dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0;font-size:13px}
dt{color:var(--muted)}nav a{margin-right:14px;font-size:13px}.grid{display:grid;grid-template-columns:1fr 1fr;gap:18px}@media(max-width:900px){.grid{grid-template-columns:1fr}}`

/** The secret stays recognisable without being readable on a shared screen (the full value is in /_sandbox/config). */
export const maskSecret = (secret: string) => (secret.length <= 10 ? "••••••" : `${secret.slice(0, 6)}••••••${secret.slice(-4)}`)

const time = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, "Z")
const badge = (text: string) => `<span class="badge ${e(text)}">${e(text)}</span>`

function transactionRows(txs: TransactionRecord[]): string {
  if (txs.length === 0) return `<p class="empty">No transactions yet.</p>`
  const rows = txs.map((tx) => {
    const pm = tx.payment_method
    const method = pm ? `${e(pm.type)}${pm.masked ? ` <code>${e(pm.masked)}</code>` : ""}` : `<span class="muted">—</span>`
    return `<tr data-transaction="${e(tx.id)}"><td>${e(time(tx.created_at))}</td><td><a href="/_sandbox/transactions/${encodeURIComponent(tx.id)}"><code>${e(tx.id)}</code></a></td>
<td>${e(tx.transaction_type)}${tx.parent_id ? `<br><span class="muted">of ${e(tx.parent_id)}</span>` : ""}</td><td>${e(tx.reference)}</td><td>${e(formatMoney(tx.amount, tx.currency))}</td>
<td>${method}</td><td>${e(tx.integration_type)}</td><td>${badge(tx.status)}</td><td><code>${e(tx.processing_code ?? "")}</code> ${e(tx.response_message ?? "")}</td>
<td>${tx.number_of_instalments ?? `<span class="muted">—</span>`}</td></tr>`
  })
  return `<table><thead><tr><th>Created</th><th>Transaction</th><th>Type</th><th>Reference</th><th>Amount</th><th>Method</th><th>Integration</th><th>Status</th><th>Processing</th><th>Instalments</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
}

function deliveryRows(deliveries: Delivery[]): string {
  if (deliveries.length === 0) return `<p class="empty">No webhook deliveries yet. Register an endpoint with <code>POST /_sandbox/webhooks {"url": "…"}</code>.</p>`
  const rows = deliveries.map((d) => {
    const answers = d.attempts.map((a) => (a.status === null ? `<span title="${e(a.error ?? "")}">error</span>` : e(a.status))).join(", ")
    return `<tr data-delivery="${e(d.id)}"><td>${e(time(d.created_at))}</td><td><code>${e(d.event)}</code></td>
<td><a href="/_sandbox/transactions/${encodeURIComponent(d.subject_id)}"><code>${e(d.subject_id)}</code></a></td><td><code>${e(d.url)}</code></td>
<td>${badge(d.state)}${d.fault ? ` <span class="muted">${e(d.fault)}</span>` : ""}</td><td>${d.attempts.length}</td><td>${answers || `<span class="muted">—</span>`}</td>
<td>${d.state === "retrying" && d.next_attempt_at ? e(time(d.next_attempt_at)) : `<span class="muted">—</span>`}</td></tr>`
  })
  return `<table><thead><tr><th>Queued</th><th>Event</th><th>Subject</th><th>Endpoint</th><th>State</th><th>Attempts</th><th>Answers</th><th>Next attempt</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
}

function testCards(): string {
  const rows = TEST_CARD_SCENARIOS.map((scenario) => {
    const numbers = (brand: string) => TEST_CARDS.filter((c) => c.scenario === scenario && c.brand === brand).map((c) => `<code>${e(c.number)}</code>`).join(" ")
    return `<tr><td>${e(SCENARIO_TEXT[scenario])}</td><td>${numbers("VISA")}</td><td>${numbers("MASTERCARD")}</td></tr>`
  })
  return `<table><thead><tr><th>Scenario</th><th>VISA</th><th>MASTERCARD</th></tr></thead><tbody>${rows.join("")}</tbody></table>
<p class="muted">Any expiry in the future and any CVV. Other numbers: metadata <code>simulate_redirect</code>, <code>simulate_form_submit</code>, <code>simulated_flow</code> and <code>response_code</code> decide (Direct API); for an embedded session use <code>POST /_sandbox/embedded/sessions/:id/metadata</code>.</p>`
}

export function homePage(ctx: SandboxContext, refreshSeconds: number | null): string {
  const merchant = [...ctx.merchants.values()][0]
  const txs = [...ctx.store.transactions.values()].reverse().slice(0, RECENT)
  const deliveries = [...ctx.webhooks.deliveries].reverse().slice(0, RECENT)
  const endpoints = ctx.webhooks.endpoints.get(merchant.merchant_id) ?? []
  const terminals = merchant.terminals
    .map((t) => `<tr><td><code>${e(t.terminal_id)}</code></td><td>${e(t.label)}</td><td>${t.features.map(e).join(", ")}</td><td>${t.active ? "active" : badge("INACTIVE")}${t.accepting ? "" : " not accepting"}</td></tr>`)
    .join("")
  const refresh = refreshSeconds ? `<meta http-equiv="refresh" content="${refreshSeconds}">` : ""
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">${refresh}
<title>PGS sandbox</title><style>${STYLE}</style></head><body>
<header><h1>PGS sandbox</h1><code>${e(ctx.urls.base)}</code><span class="muted">environment: test · realm ${e(ctx.options.realm)}</span></header>
<main>
<nav><a href="/_sandbox/config">config (JSON)</a><a href="/_sandbox/transactions">transactions</a><a href="/_sandbox/ledger">ledger</a><a href="/_sandbox/webhooks">webhook endpoints</a><a href="/_sandbox/webhooks/deliveries">deliveries</a><a href="/_sandbox/faults">faults</a><a href="/_sandbox/stats">stats</a>
${refreshSeconds ? `<a href="/">stop auto-refresh</a>` : `<a href="/?refresh=5">auto-refresh every 5 s</a>`}</nav>
<div class="grid" style="margin-top:14px">
<section id="connect"><h2>Connect</h2><dl>
<dt>base_url</dt><dd><code>${e(ctx.urls.base)}</code></dd>
<dt>token URL</dt><dd><code>${e(`${ctx.urls.auth}/realms/${ctx.options.realm}/protocol/openid-connect/token`)}</code></dd>
<dt>merchant_id</dt><dd><code>${e(merchant.merchant_id)}</code></dd>
<dt>client_id</dt><dd><code>${e(merchant.client_id)}</code></dd>
<dt>client_secret</dt><dd><code id="client-secret">${e(maskSecret(merchant.client_secret))}</code> <span class="muted">(full value in /_sandbox/config)</span></dd>
<dt>client key</dt><dd><code>${e(merchant.client_key)}</code></dd>
<dt>embedded fields</dt><dd><code>${e(`${ctx.urls.base}/embedded-fields.js`)}</code></dd>
<dt>webhook endpoints</dt><dd>${endpoints.length ? endpoints.map((u) => `<code>${e(u)}</code>`).join("<br>") : `<span class="muted">none registered</span>`}</dd>
</dl></section>
<section id="terminals"><h2>Terminals</h2><table><thead><tr><th>Terminal</th><th>Purpose</th><th>Features</th><th>State</th></tr></thead><tbody>${terminals}</tbody></table></section>
</div>
<section id="transactions"><h2>Recent transactions</h2>${transactionRows(txs)}</section>
<section id="deliveries"><h2>Webhook deliveries</h2>${deliveryRows(deliveries)}</section>
<section id="test-cards"><h2>Test cards</h2>${testCards()}</section>
</main></body></html>`
}
