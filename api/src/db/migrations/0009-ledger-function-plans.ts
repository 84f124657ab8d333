import { type Kysely, PostgresAdapter, sql } from "kysely";

/** The functions of migration 0008, by signature. */
const LEDGER_FUNCTIONS = [
  "record_step_counts(json, json, bigint, integer)",
  "recount_step_days(json, bigint, integer)",
] as const;

/**
 * On PostgreSQL, the ledger's functions keep each statement's plan for the connection instead of
 * planning it on every call: planning was about a third of PostgreSQL's CPU per sync
 * (75–126 µs per sync against 57–85 µs, with the API's group commit at 50 syncs in flight).
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
