/**
 * A store's history, made fast: the plugin's tables filled as a busy store would fill them over two years, with
 * PostgreSQL set-based inserts (INSERT … SELECT generate_series), never row by row through Medusa. Used by the
 * history bench (bench/history.bench.ts) and the query-plan test (integration-tests/history). Times are whole
 * milliseconds (what the plugin writes from JavaScript Dates), spread evenly over `days` before `now`.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

export type HistorySize = { events: number; followUps: number; retiredSessions: number; payouts: number; days?: number }

/** Two years of a store taking ~700 payments a day (the "busy store"). */
export const TWO_YEARS: HistorySize = { events: 2_000_000, followUps: 500_000, retiredSessions: 500_000, payouts: 500_000, days: 730 }

/** `i`-th of `n` rows, `days` long ago at i = 1 and a day ago at i = n. */
const at = (n: number, days: number) =>
  `date_trunc('milliseconds', now() - interval '1 day' - ((${n} - i)::float8 / ${n} * ${days - 1}) * interval '1 day')`

export async function fillHistory(knex: Knex, size: HistorySize): Promise<void> {
  const days = size.days ?? 730
  // Four events per transaction (authorized, captured, a refund, a tokenization), as a card payment's life sends.
  await knex.raw(`
    insert into pgs_webhook_event (id, delivery_key, event, subject_id, reference, payload, received_at, processed_at, outcome, attempts, created_at, updated_at)
    select 'pgswh_hist' || lpad(i::text, 9, '0'), md5(i::text) || md5('key' || i), ev, 'trx_hist_' || (i / 4), 'ref_hist_' || (i / 4),
      jsonb_build_object('id', 'trx_hist_' || (i / 4), 'status', 'APPROVED', 'amount', 1000 + i % 90000, 'currency', 'eur',
        'reference', 'ref_hist_' || (i / 4), 'transaction_type', 'PURCHASE', 'processing_code', '00', 'authentication_status', 'Y',
        'parent_id', case when i % 4 = 2 then 'trx_hist_p_' || (i / 4) end,
        'transaction_id', case when i % 4 = 3 then 'trx_hist_' || (i / 4) end,
        'customer', jsonb_build_object('id', 'cus_' || (i % 50000), 'email', 'shopper' || (i % 50000) || '@example.com', 'first_name', 'Ada', 'last_name', 'Lovelace')),
      t, t + interval '1 second',
      case when i % 5000 = 0 then 'handled:late_money' else 'applied:captured' end, 1, t, t
    from (select i, ${at(size.events, days)} as t,
            (array['payment-webhook:transaction:authorized', 'payment-webhook:transaction:captured', 'payment-webhook:transaction:refunded', 'tokenization-webhook:payment-method:tokenized'])[i % 4 + 1] as ev
          from generate_series(1, ${size.events}) i) s`)
  // Follow-ups: most are reconciliation checks long done; the rest the record the admin's list pages through.
  await knex.raw(`
    insert into pgs_follow_up (id, key, kind, state, transaction_id, reference, order_id, amount_minor, raw_amount_minor, currency_code, note, checks, last_status, resolved_at, created_at, updated_at)
    select 'pgsfu_hist' || lpad(i::text, 9, '0'), 'check:trx_hist_fu_' || i, kind, 'done', 'trx_hist_fu_' || i, 'ref_hist_fu_' || i,
      'order_hist_' || i, 1250, '{"value":"1250","precision":20}', 'eur', 'EUR 12.50 was APPROVED at the gateway.', 2, 'APPROVED', t, t, t
    from (select i, ${at(size.followUps, days)} as t,
            (array['check', 'check', 'check', 'check', 'check', 'check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management'])[i % 10 + 1] as kind
          from generate_series(1, ${size.followUps}) i) s`)
  await knex.raw(`
    insert into pgs_retired_session (id, session_id, reference, terminal_id, transaction_id, amount_minor, raw_amount_minor, currency_code, retired_at, created_at, updated_at)
    select 'pgsrs_hist' || lpad(i::text, 9, '0'), 'payses_hist_' || i, 'ref_hist_rs_' || i, 'SBX-ALL-001', case when i % 3 = 0 then 'trx_hist_rs_' || i end,
      1250, '{"value":"1250","precision":20}', 'eur', t, t, t
    from (select i, ${at(size.retiredSessions, days)} as t from generate_series(1, ${size.retiredSessions}) i) s`)
  await knex.raw(`
    insert into pgs_payout (id, reference, terminal_id, method, transaction_type, amount, raw_amount, currency_code, description, status, masked, beneficiary_name, beneficiary_fingerprint, transaction_id, processing_code, created_at, updated_at)
    select 'pgspo_hist' || lpad(i::text, 9, '0'), 'payout-hist-' || i, 'SBX-PAYOUT-01', 'bank_account', 'PAYOUT', 25, '{"value":"25","precision":20}', 'eur',
      'Seller payout ' || i, case when i % 50 = 0 then 'DECLINED' else 'APPROVED' end, '******' || lpad((i % 10000)::text, 4, '0'), 'Grace Hopper',
      md5('beneficiary' || (i % 5000)), 'trx_hist_po_' || i, '00', t, t
    from (select i, ${at(size.payouts, days)} as t from generate_series(1, ${size.payouts}) i) s`)
  for (const table of ["pgs_webhook_event", "pgs_follow_up", "pgs_retired_session", "pgs_payout"]) await knex.raw(`vacuum analyze ${table}`)
}

/** Removes what fillHistory added (rows whose ids carry "_hist"). */
export async function clearHistory(knex: Knex): Promise<void> {
  for (const [table, prefix] of [["pgs_webhook_event", "pgswh_hist"], ["pgs_follow_up", "pgsfu_hist"], ["pgs_retired_session", "pgsrs_hist"], ["pgs_payout", "pgspo_hist"]])
    await knex.raw(`delete from ${table} where id like ?`, [`${prefix}%`])
}
