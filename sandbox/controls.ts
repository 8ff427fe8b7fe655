/**
 * Test controls, under /_sandbox/* only: config, reset, webhook endpoints and deliveries, forced outcomes,
 * the ledger, fault injection, terminal and merchant switches, token revocation, settings and counters.
 */
import { z } from "zod"
import { FINAL_STATUSES, transactionStatus, fieldErrors } from "./schemas"
import { defaultTerminals, TEST_CARDS } from "./core/config"
import type { SandboxContext } from "./core/context"
import { HTTP_FAULT_KINDS, WEBHOOK_FAULT_KINDS } from "./core/faults"
import { json, notFound, parseJsonBody, ReplyError, type Router, type SandboxRequest } from "./core/http"
import { transactionView } from "./core/views"

export type SandboxConfigView = ReturnType<typeof sandboxConfig>

export function sandboxConfig(ctx: SandboxContext) {
  const merchant = [...ctx.merchants.values()][0]
  return {
    base_url: ctx.urls.base,
    auth_url: ctx.urls.auth,
    realm: ctx.options.realm,
    token_url: `${ctx.urls.auth}/realms/${ctx.options.realm}/protocol/openid-connect/token`,
    merchant_id: merchant.merchant_id,
    client_id: merchant.client_id,
    client_secret: merchant.client_secret,
    client_key: merchant.client_key,
    environment: "test" as const,
    embedded_fields_script_url: `${ctx.urls.base}/embedded-fields.js`,
    terminals: merchant.terminals.map((t) => ({ ...t, instalments: t.features.includes("INSTALMENTS") })),
    merchant_public_key: ctx.keys.merchant.publicPem,
    webhook_public_key: ctx.keys.webhook.publicPem,
    test_cards: TEST_CARDS.map((c) => ({ ...c })),
    settings: {
      token_ttl_seconds: ctx.options.tokenTtlSeconds,
      webhook_time_scale: ctx.options.webhookTimeScale,
      event_names: ctx.options.eventNames,
      tokenization_payload: ctx.options.tokenizationPayload,
      fingerprint_wait_ms: ctx.options.fingerprintWaitMs,
      payout_settle_after_ms: ctx.options.payoutSettleAfterMs,
      webhooks_held: ctx.webhooks.isHeld,
    },
  }
}

/** Parse a control body; errors use the gateway's 422 shape so tools read them the same way. */
function body<S extends z.ZodType>(req: SandboxRequest, schema: S): z.output<S> {
  const raw = req.rawBody.length ? parseJsonBody(req) : {}
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new ReplyError(json(422, { errors: fieldErrors(parsed.error, raw), method: req.method, status: 422 }))
  return parsed.data
}

const webhookRegistration = z.object({ url: z.url({ protocol: /^https?$/ }) })
const forcedOutcome = z.object({
  status: transactionStatus.refine((s) => FINAL_STATUSES.has(s) || s === "PENDING", "must be PENDING or a final status"),
  processing_code: z.string().regex(/^\d{4}$/).optional(),
  response_message: z.string().optional(),
})
const faultRule = z.object({
  target: z.string().min(1),
  kind: z.enum([...HTTP_FAULT_KINDS, ...WEBHOOK_FAULT_KINDS]),
  phase: z.enum(["before", "after"]).default("before"),
  count: z.int().min(1).max(10_000).default(1),
  latency_ms: z.int().min(0).max(600_000).optional(),
  status: z.union([z.literal(401), z.literal(429), z.int().min(500).max(599)]).optional(),
})
const terminalSwitch = z.object({
  active: z.boolean().optional(),
  accepting: z.boolean().optional(),
  features: z.array(z.string()).optional(),
  methods: z.array(z.string()).optional(),
})
const settings = z.object({
  token_ttl_seconds: z.int().min(1).max(86_400).optional(),
  event_names: z.enum(["specific", "generic"]).optional(),
  tokenization_payload: z.enum(["nested", "flat"]).optional(),
  fingerprint_wait_ms: z.int().min(0).max(10_000).optional(),
  payout_settle_after_ms: z.int().min(0).max(86_400_000).optional(),
  webhooks_held: z.boolean().optional(),
})

export function registerControlRoutes(router: Router, ctx: SandboxContext): void {
  const merchant = () => [...ctx.merchants.values()][0]

  router.add("GET", "/_sandbox/config", () => json(200, sandboxConfig(ctx)))

  router.add("POST", "/_sandbox/reset", () => {
    ctx.store.reset()
    ctx.payouts.stop()
    ctx.webhooks.reset()
    ctx.webhooks.unregisterAll()
    ctx.faults.clear()
    ctx.revokedBefore = 0
    ctx.stats.tokenRequests = 0
    ctx.stats.requests = {}
    for (const m of ctx.merchants.values()) {
      m.active = true
      m.terminals = defaultTerminals(ctx.urls.base)
    }
    return json(200, { reset: true })
  })

  router.add("POST", "/_sandbox/webhooks", (req) => {
    const { url } = body(req, webhookRegistration)
    ctx.webhooks.register(merchant().merchant_id, url)
    return json(201, { url, endpoints: ctx.webhooks.endpoints.get(merchant().merchant_id) })
  })
  router.add("DELETE", "/_sandbox/webhooks", () => {
    ctx.webhooks.unregisterAll()
    return json(200, { endpoints: [] })
  })
  router.add("GET", "/_sandbox/webhooks", () => json(200, { endpoints: ctx.webhooks.endpoints.get(merchant().merchant_id) ?? [] }))
  router.add("GET", "/_sandbox/webhooks/deliveries", (req) => {
    const event = req.url.searchParams.get("event")
    const subject = req.url.searchParams.get("subject_id")
    const deliveries = ctx.webhooks.deliveries.filter((d) => (!event || d.event === event) && (!subject || d.subject_id === subject))
    return json(200, { deliveries })
  })

  router.add("GET", "/_sandbox/transactions", () =>
    json(200, { transactions: [...ctx.store.transactions.values()].reverse().map(transactionView) }),
  )
  router.add("GET", "/_sandbox/transactions/:id", (req) => {
    const tx = ctx.store.transactions.get(req.params.id)
    if (!tx) throw notFound("Transaction not found")
    return json(200, { transaction: transactionView(tx), record: tx, children: ctx.store.children(tx.id).map(transactionView) })
  })
  router.add("POST", "/_sandbox/transactions/:id/outcome", (req) => {
    const tx = ctx.store.transactions.get(req.params.id)
    if (!tx) throw notFound("Transaction not found")
    const { status, processing_code, response_message } = body(req, forcedOutcome)
    if (FINAL_STATUSES.has(tx.status))
      return json(409, { error: `Transaction is already ${tx.status}; a final status never changes` })
    ctx.store.setStatus(tx, status, { processing_code, response_message })
    return json(200, { transaction: transactionView(tx) })
  })
  router.add("POST", "/_sandbox/transactions/:id/webhook", (req) => {
    const tx = ctx.store.transactions.get(req.params.id)
    if (!tx) throw notFound("Transaction not found")
    ctx.store.announce(tx)
    return json(202, { resent: tx.id })
  })

  router.add("GET", "/_sandbox/ledger", () => {
    const entries = ctx.store.ledger.map((e) => ({ ...e, status: ctx.store.transactions.get(e.transaction_id)?.status ?? null }))
    return json(200, { entries })
  })

  router.add("POST", "/_sandbox/faults", (req) => {
    const { count, ...rule } = body(req, faultRule)
    return json(201, ctx.faults.add({ ...rule, remaining: count }))
  })
  router.add("GET", "/_sandbox/faults", () => json(200, { faults: ctx.faults.rules }))
  router.add("DELETE", "/_sandbox/faults", () => {
    ctx.faults.clear()
    return json(200, { faults: [] })
  })

  router.add("POST", "/_sandbox/terminals/:id", (req) => {
    const terminal = merchant().terminals.find((t) => t.terminal_id === req.params.id)
    if (!terminal) throw notFound("Terminal not found")
    Object.assign(terminal, body(req, terminalSwitch))
    return json(200, { terminal })
  })
  router.add("POST", "/_sandbox/merchant", (req) => {
    const { active } = body(req, z.object({ active: z.boolean() }))
    merchant().active = active
    return json(200, { merchant_id: merchant().merchant_id, active })
  })
  router.add("POST", "/_sandbox/tokens/revoke", () => {
    ctx.revokedBefore = Date.now()
    return json(200, { revoked_before: new Date(ctx.revokedBefore).toISOString() })
  })
  router.add("POST", "/_sandbox/settings", (req) => {
    const s = body(req, settings)
    if (s.token_ttl_seconds !== undefined) ctx.options.tokenTtlSeconds = s.token_ttl_seconds
    if (s.event_names) ctx.options.eventNames = s.event_names
    if (s.tokenization_payload) ctx.options.tokenizationPayload = s.tokenization_payload
    if (s.fingerprint_wait_ms !== undefined) ctx.options.fingerprintWaitMs = s.fingerprint_wait_ms
    if (s.payout_settle_after_ms !== undefined) {
      ctx.options.payoutSettleAfterMs = s.payout_settle_after_ms
      ctx.payouts.rescheduleAll()
    }
    if (s.webhooks_held !== undefined) ctx.webhooks.setHeld(s.webhooks_held)
    return json(200, sandboxConfig(ctx).settings)
  })
  router.add("GET", "/_sandbox/stats", () => json(200, ctx.stats))
}
