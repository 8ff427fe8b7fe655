import { ulid } from "ulid"
import type { Client as PgClient } from "pg"
import { connect, installRowRestore, restoreRows, takeRowSnapshot } from "./row-restore"

/**
 * The store suites' per-test restore (row-restore.ts) against real PostgreSQL: after it, every table holds exactly
 * what it held at the snapshot, compared with the runner's own template, column types and sequences included.
 */
const database = `pgs-row-restore-${ulid().toLowerCase()}`
const template = `${database}-template`
let admin: PgClient

async function inDatabase<T>(name: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = connect(name)
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Every public table's rows (in a stable order) and every sequence's position: what a test can see. */
const contentsOf = (name: string) =>
  inDatabase(name, async (client) => {
    const tables = (await client.query<{ name: string }>(`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r' order by 1`)).rows
    const out: Record<string, unknown> = {}
    for (const { name: table } of tables) {
      out[table] = (await client.query(`select t::text as row from public."${table}" t order by 1`)).rows.map((r) => r.row)
    }
    for (const seq of (await client.query<{ name: string }>(`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'S' order by 1`)).rows) {
      out[`sequence ${seq.name}`] = (await client.query(`select last_value, is_called from public."${seq.name}"`)).rows[0]
    }
    return out
  })

beforeAll(async () => {
  admin = connect("postgres")
  await admin.connect()
  await admin.query(`create database "${database}"`)
  await inDatabase(database, async (client) => {
    await client.query(`
      create table region (id text primary key, name text not null, created_at timestamptz not null default now());
      create table cart (
        id text primary key,
        region_id text not null references region (id),
        total numeric not null,
        metadata jsonb,
        tags text[],
        secret bytea,
        display_id integer generated always as identity,
        total_cents numeric generated always as (total * 100) stored
      );
      create table "order" (id serial primary key, cart_id text not null references cart (id), note text);
      create table empty_at_snapshot (id text primary key);
      create sequence order_display_seq start 100;
      insert into region values ('reg_1', 'Europe', '2026-12-07T10:00:00Z'), ('reg_2', 'Americas', '2026-12-07T10:00:01Z');
      insert into cart (id, region_id, total, metadata, tags, secret) values
        ('cart_1', 'reg_1', 12.345, '{"a": [1, {"b": null}]}', '{x,"y z"}', '\\x00ff10'),
        ('cart_2', 'reg_2', 0.1, null, null, null);
      insert into "order" (cart_id, note) values ('cart_1', E'line\\nbreak');
      select nextval('order_display_seq');
    `)
  })
  await takeRowSnapshot(database)
  await admin.query(`create database "${template}" template "${database}"`)
})

afterAll(async () => {
  for (const name of [database, template]) await admin.query(`drop database if exists "${name}" with (force)`)
  await admin.end()
})

describe("the store suites' row restore", () => {
  it("gives the next test exactly the snapshot's rows and sequences after a test wrote, changed and deleted", async () => {
    const before = await contentsOf(template)
    await inDatabase(database, async (client) => {
      await client.query(`
        insert into region values ('reg_3', 'Asia');
        update cart set total = 99, metadata = '{"changed": true}' where id = 'cart_1';
        insert into cart (id, region_id, total) values ('cart_3', 'reg_3', 5);
        delete from "order";
        insert into "order" (cart_id) values ('cart_3'), ('cart_2');
        insert into empty_at_snapshot values ('left behind');
        select nextval('order_display_seq'), nextval('order_display_seq');
      `)
    })
    expect(await contentsOf(database)).not.toEqual(before)

    expect(await restoreRows(database)).toBe(true)
    expect(await contentsOf(database)).toEqual(before)
    // Identity and serial columns go on from the snapshot's numbers, as they would in the template's copy.
    await inDatabase(database, async (client) => {
      const { rows } = await client.query(`insert into cart (id, region_id, total) values ('cart_4', 'reg_1', 1) returning display_id`)
      expect(rows[0].display_id).toBe(3)
    })
    await restoreRows(database)
  })

  it("ends a transaction a test left open on a row, as dropping the database would", async () => {
    const before = await contentsOf(template)
    const holder = connect(database)
    holder.on("error", () => undefined)
    await holder.connect()
    await holder.query("begin")
    await holder.query(`update region set name = 'held' where id = 'reg_1'`)

    expect(await restoreRows(database)).toBe(true)
    expect(await contentsOf(database)).toEqual(before)
    await holder.end().catch(() => undefined)
  })

  it("declines (so the runner restores from its template) when a test changed the schema and left it so", async () => {
    await inDatabase(database, (client) => client.query(`create index region_name on region (name)`))
    expect(await restoreRows(database)).toBe(false)
    await inDatabase(database, (client) => client.query(`drop index region_name`))
    await inDatabase(database, (client) => client.query(`alter table cart add constraint refuse_all check (false) not valid`))
    expect(await restoreRows(database)).toBe(false)
    await inDatabase(database, (client) => client.query(`alter table cart drop constraint refuse_all`))
    // Replaced in place, the trigger keeps its identity but not its definition.
    await inDatabase(database, (client) =>
      client.query(`create function refuse() returns trigger language plpgsql as $$ begin return new; end $$;
        create trigger refuse before update on region for each row execute function refuse()`),
    )
    expect(await restoreRows(database)).toBe(false)
  })

  it("restores from the template when it declines, and restores by rows again after that", async () => {
    installRowRestore()
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const runner = require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template")
    const before = await contentsOf(template)
    // Left by the test before: a trigger, and a row written under it.
    await inDatabase(database, (client) => client.query(`insert into region values ('reg_9', 'left behind')`))
    expect(await restoreRows(database)).toBe(false)

    await runner.restorePostgresDatabaseFromTemplate({ databaseName: database, templateName: template })
    expect(await contentsOf(database)).toEqual(before)
    const triggers = await inDatabase(database, (client) => client.query(`select 1 from pg_trigger where tgname = 'refuse'`))
    expect(triggers.rowCount).toBe(0)
    // The template holds the snapshot too, so the next restore is by rows again.
    expect(await restoreRows(database)).toBe(true)
  })

  it("is what Medusa's test runner calls to snapshot and restore, once installed", () => {
    installRowRestore()
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const runner = require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template")
    // The runner's database utilities read the function from this module at each call.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const utils = require("@medusajs/test-utils/dist/medusa-test-runner-utils")
    expect(utils.restorePostgresDatabaseFromTemplate).toBe(runner.restorePostgresDatabaseFromTemplate)
    expect(utils.createPostgresDatabaseTemplate).toBe(runner.createPostgresDatabaseTemplate)
    expect(runner.__pgsRowRestore).toBe(true)
  })
})
