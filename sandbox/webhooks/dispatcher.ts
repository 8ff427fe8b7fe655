/**
 * Signed webhook delivery with retries. Each delivery is a POST of the exact body bytes with
 * `Authorization: Bearer <JWT>`, the JWT (RS256, webhook key) carrying `data.SHA512` = hex SHA-512 of those bytes.
 * A non-2xx answer or a network error is retried with exponential backoff (1 s, 2 s, 4 s ... capped at 1 h) for
 * up to 24 h; every delay is multiplied by `webhookTimeScale` so tests take seconds.
 */
import { createHash } from "node:crypto"
import { SignJWT } from "jose"
import { request } from "undici"
import { newId, nowIso } from "../core/ids"
import type { FaultInjector } from "../core/faults"
import type { KeyPair } from "../core/keys"

export type DeliveryAttempt = {
  attempt: number
  at: string
  status: number | null
  error: string | null
  duration_ms: number
  response_body: string
}

export type Delivery = {
  id: string
  merchant_id: string
  event: string
  /** The transaction (or payment method) the event is about. */
  subject_id: string
  url: string
  body: string
  state: "scheduled" | "delivered" | "retrying" | "gave_up"
  attempts: DeliveryAttempt[]
  created_at: string
  next_attempt_at: string | null
  /** Set when a fault sent this delivery more than once or out of order. */
  fault: string | null
}

const BASE_DELAY_MS = 1000
const MAX_DELAY_MS = 3_600_000
const RETRY_WINDOW_MS = 24 * 3_600_000
const HOLD_LIMIT_MS = 5_000

export class WebhookDispatcher {
  readonly endpoints = new Map<string, string[]>()
  readonly deliveries: Delivery[] = []
  private readonly timers = new Set<NodeJS.Timeout>()
  /** A delivery held back by an out_of_order fault, released after the next one is sent. */
  private held: Delivery[] = []
  /** What to do once a delivery's first attempt has been answered (releasing held deliveries). */
  private readonly afterFirstAttempt = new Map<string, () => void>()
  /** While held (control `webhooks_held`), new deliveries wait here and go out when released. */
  private onHold: Delivery[] | null = null
  private closed = false
  /** Told after every change to endpoints or deliveries (--state-dir saves then). */
  onChange: () => void = () => {}

  constructor(
    private readonly signingKey: KeyPair,
    private readonly issuer: () => string,
    private readonly timeScale: number,
    private readonly faults: FaultInjector,
  ) {}

  register(merchantId: string, url: string): void {
    const list = this.endpoints.get(merchantId) ?? []
    if (!list.includes(url)) list.push(url)
    this.endpoints.set(merchantId, list)
    this.onChange()
  }

  /**
   * Take back saved endpoints and deliveries (--state-dir): one still due goes out at its planned time, or now
   * when that time passed while the sandbox was down. Deliveries held by the `webhooks_held` control go out too.
   */
  restore(endpoints: Record<string, string[]>, deliveries: Delivery[]): void {
    for (const [merchantId, urls] of Object.entries(endpoints)) this.endpoints.set(merchantId, [...urls])
    for (const delivery of deliveries) {
      this.deliveries.push(delivery)
      if (delivery.state !== "scheduled" && delivery.state !== "retrying") continue
      const due = Date.parse(delivery.next_attempt_at ?? "") || Date.now()
      this.schedule(delivery, Math.max(0, due - Date.now()))
    }
  }

  unregisterAll(merchantId?: string): void {
    if (merchantId) this.endpoints.delete(merchantId)
    else this.endpoints.clear()
    this.onChange()
  }

  /** Hold new deliveries (a gateway whose queue runs behind), or release every one held so far. */
  setHeld(held: boolean): void {
    if (held) {
      this.onHold ??= []
      return
    }
    const waiting = this.onHold ?? []
    this.onHold = null
    for (const delivery of waiting) this.dispatch(delivery)
  }

  get isHeld(): boolean {
    return this.onHold !== null
  }

  reset(): void {
    for (const t of this.timers) clearTimeout(t)
    this.timers.clear()
    this.deliveries.length = 0
    this.held = []
    this.onHold = null
    this.afterFirstAttempt.clear()
  }

  close(): void {
    this.closed = true
    this.reset()
  }

  /** Queue one event for every endpoint of the merchant. */
  send(merchantId: string, subjectId: string, event: { event: string; payload: unknown }): void {
    const urls = this.endpoints.get(merchantId) ?? []
    const body = JSON.stringify(event)
    for (const url of urls) {
      const delivery: Delivery = {
        id: newId("whd"),
        merchant_id: merchantId,
        event: event.event,
        subject_id: subjectId,
        url,
        body,
        state: "scheduled",
        attempts: [],
        created_at: nowIso(),
        next_attempt_at: nowIso(),
        fault: null,
      }
      this.deliveries.push(delivery)
      if (this.onHold) this.onHold.push(delivery)
      else this.dispatch(delivery)
    }
    if (urls.length) this.onChange()
  }

  private dispatch(delivery: Delivery): void {
    const fault = this.faults.take("webhook", "any", ["duplicate", "out_of_order"])
    if (fault?.kind === "out_of_order") {
      delivery.fault = "out_of_order"
      this.held.push(delivery)
      // If no later event overtakes it, send it anyway after a while rather than never.
      const timer = setTimeout(() => {
        this.timers.delete(timer)
        if (!this.held.includes(delivery)) return
        this.held = this.held.filter((d) => d !== delivery)
        this.schedule(delivery, 0)
      }, HOLD_LIMIT_MS)
      timer.unref()
      this.timers.add(timer)
      return
    }
    const release = this.held
    this.held = []
    // Held deliveries go out only once the one that overtook them has been answered: a real reordering.
    if (release.length) this.afterFirstAttempt.set(delivery.id, () => release.forEach((held, i) => this.schedule(held, i)))
    this.schedule(delivery, 0)
    if (fault?.kind === "duplicate") {
      delivery.fault = "duplicate"
      const copy: Delivery = { ...delivery, id: newId("whd"), attempts: [], fault: "duplicate-copy" }
      this.deliveries.push(copy)
      this.schedule(copy, 1)
    }
  }

  private schedule(delivery: Delivery, delayMs: number): void {
    if (this.closed) return
    delivery.next_attempt_at = new Date(Date.now() + delayMs).toISOString()
    const timer = setTimeout(() => {
      this.timers.delete(timer)
      void this.attempt(delivery)
    }, delayMs)
    timer.unref()
    this.timers.add(timer)
  }

  async sign(body: string): Promise<string> {
    const digest = createHash("sha512").update(body).digest("hex")
    return new SignJWT({ data: { SHA512: digest } })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "sandbox-webhook" })
      .setIssuer(this.issuer())
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(this.signingKey.privateKey)
  }

  private async attempt(delivery: Delivery): Promise<void> {
    const started = Date.now()
    const record: DeliveryAttempt = { attempt: delivery.attempts.length + 1, at: nowIso(), status: null, error: null, duration_ms: 0, response_body: "" }
    delivery.attempts.push(record)
    let ok = false
    const failFault = this.faults.take("webhook", "any", ["fail"])
    try {
      if (failFault) throw new Error("delivery failed by fault injection")
      const jwt = await this.sign(delivery.body)
      const res = await request(delivery.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${jwt}`, "user-agent": "pgs-sandbox-webhooks/1" },
        body: delivery.body,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      })
      record.status = res.statusCode
      record.response_body = (await res.body.text()).slice(0, 500)
      ok = res.statusCode >= 200 && res.statusCode < 300
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error)
    }
    record.duration_ms = Date.now() - started
    const then = this.afterFirstAttempt.get(delivery.id)
    if (then) {
      this.afterFirstAttempt.delete(delivery.id)
      then()
    }
    this.settle(delivery, ok, record.attempt)
    this.onChange()
  }

  private settle(delivery: Delivery, ok: boolean, attempt: number): void {
    if (ok) {
      delivery.state = "delivered"
      delivery.next_attempt_at = null
      return
    }
    const delay = Math.min(BASE_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS) * this.timeScale
    const elapsed = Date.now() - Date.parse(delivery.created_at)
    if (elapsed + delay > RETRY_WINDOW_MS * this.timeScale) {
      delivery.state = "gave_up"
      delivery.next_attempt_at = null
      return
    }
    delivery.state = "retrying"
    this.schedule(delivery, delay)
  }
}
