/**
 * Medusa and the gateway compared for every transaction the gateway holds, amount for amount: each payment the
 * gateway made is one Medusa payment of the same amount, with the same captures and the same refunds, and Medusa
 * holds no PGS payment the gateway does not know.
 */
import type { SandboxHarness } from "../../support/sandbox"
import { firstTimes, ledger } from "../../topology/support/gateway"

type Sql = (text: string, params?: unknown[]) => Promise<any[]>
export type Side = { amount: number; captures: number[]; refunds: number[] }

const minor = (rows: Array<{ amount: unknown }>) => rows.map((r) => Math.round(Number(r.amount) * 100)).sort((a, b) => a - b)

/** For every gateway transaction (by id) what the gateway and Medusa hold; `medusa` is null where Medusa has none. */
export async function gatewayAndMedusa(sandbox: SandboxHarness, sql: Sql) {
  const entries = firstTimes(await ledger(sandbox))
  const parents = entries.filter((e) => !e.parent_id && e.status !== "DECLINED" && e.status !== "FAILED")
  const children = (id: string, type: string) => entries.filter((e) => e.parent_id === id && e.transaction_type === type && e.status === "APPROVED")
  const compared: Record<string, { gateway: Side; medusa: Side | null }> = {}
  for (const p of parents) {
    // A sale (PAYMENT, PURCHASE) is captured by the gateway as it is approved; an authorization by its CAPTUREs.
    const captures = p.transaction_type === "AUTHORIZE" ? children(p.transaction_id, "CAPTURE").map((e) => e.amount) : [p.amount]
    const gateway = { amount: p.amount, captures: captures.sort((a, b) => a - b), refunds: children(p.transaction_id, "REFUND").map((e) => e.amount).sort((a, b) => a - b) }
    const payments = await sql("select id, amount from payment where data->>'transaction_id' = $1 and deleted_at is null", [p.transaction_id])
    if (payments.length > 1) throw new Error(`Medusa holds ${payments.length} payments for gateway transaction ${p.transaction_id}`)
    const [payment] = payments
    compared[p.transaction_id] = {
      gateway,
      medusa: payment
        ? {
            amount: Math.round(Number(payment.amount) * 100),
            captures: minor(await sql("select amount from capture where payment_id = $1 and deleted_at is null", [payment.id])),
            refunds: minor(await sql("select amount from refund where payment_id = $1 and deleted_at is null", [payment.id])),
          }
        : null,
    }
  }
  const known = new Set(parents.map((p) => p.transaction_id))
  const unknownToGateway = (await sql("select id, data->>'transaction_id' as transaction_id from payment where provider_id like 'pp_pgs%' and deleted_at is null"))
    .filter((r) => !known.has(r.transaction_id))
    .map((r) => `${r.id} (${r.transaction_id})`)
  return { compared, unknownToGateway }
}
