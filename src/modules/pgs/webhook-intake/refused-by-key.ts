/**
 * Which refused deliveries tell the shop admin that PGS_WEBHOOK_PUBLIC_KEY is wrong. Anyone can POST a token signed
 * with a key of their own to the webhook URL, so a signature our key does not verify proves nothing by itself.
 * Assumption: the spec names no key id, issuer or key list that would. What a forger cannot make up is the gateway's own record: a
 * delivery counts only when it is fresh (exp ahead, iat recent), its token signs the digest of these very bytes, it
 * is a transaction event, and the gateway, read with the store's credentials, holds that transaction exactly as the
 * event tells it (status, amount, currency, reference, description, terminal, merchant, order, approval code, reference
 * number).
 *
 * `claimedTransaction` is cheap and local (the receiver's worker thread runs it too); `GatewayRecordCheck` reads the
 * gateway, in the main thread only, one read at a time and at most one a second, so a flood of forgeries costs the
 * gateway little (those dropped are not counted: the alert is about the key, not a tally of attacks).
 */
import { createHash } from "node:crypto"
import { decodeJwt, decodeProtectedHeader } from "jose"
import { transactionEvent } from "../../../gateway/schemas/webhooks"
import { WEBHOOK_CLOCK_TOLERANCE_SECONDS, WEBHOOK_MAX_TOKEN_AGE_SECONDS } from "../../../gateway/webhooks"
import type { PgsClient } from "../../../gateway/client"

/** What a refused delivery says of its transaction (plain values: sent from the worker thread as they are). */
export type ClaimedTransaction = {
  id: string
  status: string
  amount: number
  currency: string
  reference: string
  description: string
  terminal_id: string
  merchant_id: string
  order_id: string
  approval_code: string
  reference_number: string
}

const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$/

/** The transaction a refused delivery claims, when it looks in every way like the gateway's own; else null. */
export function claimedTransaction(raw: Buffer, authorization: string | undefined, nowSeconds = Math.floor(Date.now() / 1000)): ClaimedTransaction | null {
  const jwt = /^Bearer\s+(\S+)\s*$/.exec(authorization ?? "")?.[1]
  if (!jwt) return null
  try {
    if (!ASYMMETRIC.test(String(decodeProtectedHeader(jwt).alg))) return null
    const claims = decodeJwt(jwt)
    const tolerance = WEBHOOK_CLOCK_TOLERANCE_SECONDS
    if (typeof claims.exp !== "number" || claims.exp + tolerance < nowSeconds) return null
    if (typeof claims.iat !== "number" || claims.iat > nowSeconds + tolerance || nowSeconds - claims.iat > WEBHOOK_MAX_TOKEN_AGE_SECONDS + tolerance) return null
    const digest = (claims.data as { SHA512?: unknown } | undefined)?.SHA512
    if (typeof digest !== "string" || digest.toLowerCase() !== createHash("sha512").update(raw).digest("hex")) return null
    const parsed = transactionEvent.safeParse(JSON.parse(raw.toString("utf8")))
    if (!parsed.success) return null
    const p = parsed.data.payload
    return {
      id: p.id,
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      reference: p.reference,
      description: p.description,
      terminal_id: p.terminal_id,
      merchant_id: p.merchant_id,
      order_id: p.order_id,
      approval_code: p.approval_code,
      reference_number: p.reference_number,
    }
  } catch {
    return null
  }
}

/** One gateway read a second at most; a few waiting, in the order they came; more are dropped. */
const MIN_GAP_MS = 1_000
const MAX_WAITING = 10

/** Reads the gateway for claimed transactions; `refused` is called for each one the gateway confirms. */
export class GatewayRecordCheck {
  private readonly waiting: ClaimedTransaction[] = []
  private running: Promise<void> | null = null

  constructor(
    private readonly client: () => PgsClient,
    private readonly refused: () => void,
    private readonly logger: { warn(message: string): void },
  ) {}

  /** Queues a check (dropped when too many wait); never throws. */
  check(claimed: ClaimedTransaction): void {
    if (this.waiting.length >= MAX_WAITING) return
    this.waiting.push(claimed)
    this.running ??= this.drain().finally(() => (this.running = null))
  }

  /** Settles once every queued check is done (tests, shutdown). */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve()
  }

  private async drain(): Promise<void> {
    for (let claimed = this.waiting.shift(); claimed; claimed = this.waiting.shift()) {
      const started = Date.now()
      try {
        if (await this.matchesGateway(claimed)) this.refused()
      } catch (error) {
        this.logger.warn(`PGS: could not read a refused webhook's transaction from the gateway: ${(error as Error).message}`)
      }
      const rest = MIN_GAP_MS - (Date.now() - started)
      if (this.waiting.length && rest > 0) await new Promise((resolve) => setTimeout(resolve, rest).unref())
    }
  }

  private async matchesGateway(claimed: ClaimedTransaction): Promise<boolean> {
    const found = await this.client().status.transaction(claimed.id)
    if (!found) return false
    const t = found.transaction
    const same = (held: string | null | undefined, told: string) => held == null || held === told
    return (
      t.status === claimed.status &&
      t.amount === claimed.amount &&
      t.currency === claimed.currency &&
      t.reference === claimed.reference &&
      t.description === claimed.description &&
      t.terminal_id === claimed.terminal_id &&
      t.merchant_id === claimed.merchant_id &&
      t.order_id === claimed.order_id &&
      same(t.processing_result?.approval_code, claimed.approval_code) &&
      same(t.processing_result?.reference_number, claimed.reference_number)
    )
  }
}
