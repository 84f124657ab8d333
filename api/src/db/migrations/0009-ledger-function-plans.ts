import { type Kysely, PostgresAdapter, sql } from "kysely";

/** The functions of migration 0008, by signature. */
const LEDGER_FUNCTIONS = [
  "record_step_counts(json, json, bigint, integer)",
  "recount_step_days(json, bigint, integer)",
] as const;

/**
 * Superseded with 0008: the ledger's PostgreSQL writer now installs its functions with these
 * settings at every start (`api/src/ledger/postgres-writer.ts`).
 *
 * On PostgreSQL, the ledger's functions keep each statement's plan for the connection instead of
 * planning it on every call: planning was a large share of PostgreSQL's CPU per sync.
 * 0008 planned on every call because a plan kept from while the tables were small would scan
 * them whole until PostgreSQL next analyzed them. Every statement in the functions reads and
 * writes by a key or by the manual entries' (walker, day) index, so they now also turn sequential
 * scans off: a plan made on near-empty tables reads by key, as one made on a million rows does
 * (`migrations.test.ts` reads the plans).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const fn of LEDGER_FUNCTIONS) {
    await sql`alter function ${sql.raw(fn)} set plan_cache_mode = force_generic_plan`.execute(db);
    await sql`alter function ${sql.raw(fn)} set enable_seqscan = off`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const fn of LEDGER_FUNCTIONS) {
    await sql`alter function ${sql.raw(fn)} set plan_cache_mode = force_custom_plan`.execute(db);
    await sql`alter function ${sql.raw(fn)} reset enable_seqscan`.execute(db);
  }
}
