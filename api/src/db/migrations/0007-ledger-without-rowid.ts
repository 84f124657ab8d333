import { type Kysely, SqliteAdapter, sql } from "kysely";

/** The ledger's tables, keyed by text columns and read almost only by their primary key. */
const LEDGER_TABLES = ["step_counters", "step_days", "step_months"];

/**
 * On SQLite, the ledger's tables become WITHOUT ROWID tables: their rows are stored in
 * the primary key's own B-tree, so a lookup by key is one search instead of two (the key's index,
 * then the row), which makes a 10,000-member leaderboard and every sync cheaper. Each table is
 * rebuilt with the same columns, constraints and rows. PostgreSQL has no rowid: nothing to do.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  for (const table of LEDGER_TABLES) {
    const { rows } = await sql<{ sql: string }>`
      select sql from sqlite_master where type = 'table' and name = ${table}
    `.execute(db);
    const definition = rows[0]?.sql;
    if (!definition) throw new Error(`table ${table} not found`);
    if (/without rowid\s*$/i.test(definition)) continue;
    const rebuilt = definition.replace(/^create table\s+("?)(\w+)\1/i, `create table "${table}_rebuilt"`);
    await sql.raw(`${rebuilt} without rowid`).execute(db);
    await sql.raw(`insert into "${table}_rebuilt" select * from "${table}"`).execute(db);
    await sql.raw(`drop table "${table}"`).execute(db);
    await sql.raw(`alter table "${table}_rebuilt" rename to "${table}"`).execute(db);
  }
}

/** The tables keep their keys, columns and rows either way: going back leaves them as they are. */
export async function down(_db: Kysely<unknown>): Promise<void> {}
