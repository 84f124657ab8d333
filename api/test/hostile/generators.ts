import { createHash } from "node:crypto";
import { addDays } from "@charity-steps/shared-types";
import fc from "fast-check";
import type { Kysely } from "kysely";
import { sql } from "kysely";
import type { DatabaseSchema } from "../../src/db/schema/index.js";
import { TEST_TODAY } from "../support/clock.js";

/** The parts of a JSON schema (as TypeBox writes them) that the generators read. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  description?: string;
}

/** Strings that have broken parsers before: empty, huge, unicode edge cases, dates that are not. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 20 }) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "",
      " ",
      "null",
      "undefined",
      "NaN",
      "Infinity",
      "-1",
      "1e309",
      "0x10",
      "2026-02-30",
      "2026-13-01",
      "2026-00-10",
      "0000-00-00",
      "9999-12-31",
      "+02026-01-01",
      "2026-11-21T00:00:00Z",
      "'; drop table users; --",
      "<script>alert(1)</script>",
      "\u0000",
      "\ud800",
      "\u202e\u0644\u0627",
      "Z\u0351\u0352\u0353 Walker",
      "🚶‍♀️🏳️‍🌈",
      "../../etc/passwd",
      "%00",
      "a".repeat(10_000),
      "é".repeat(3_000),
    ),
  },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, -0, 0.5, 1.5, 50_001, 100_000, 2 ** 31, 2 ** 53 + 2, 1e308, Number.MAX_SAFE_INTEGER),
);

/** Any JSON value, hostile in type or size. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 3 }),
  ),
})).value;

/**
 * A value that `schema` would accept, or nearly (so that a request gets past its other fields).
 * Dates are around the fixed today that the hostile-input test sets its clock to.
 */
export function plausibleValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(plausibleValue));
  const type = [schema.type].flat()[0];
  if (type === "integer" || type === "number") {
    const min = schema.minimum ?? 0;
    const max = Math.min(schema.maximum ?? 100_000, min + 100_000);
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max, min - 1, max + 1));
  }
  if (type === "boolean") return fc.boolean();
  if (type === "string") {
    if (schema.pattern?.includes("\\d{4}-") || schema.description?.includes("YYYY-MM-DD")) {
      return fc.integer({ min: -32, max: 1 }).map((back) => addDays(TEST_TODAY, back));
    }
    if (schema.format === "uuid") return fc.uuid();
    const maxLength = schema.maxLength ?? 60;
    return fc.oneof(
      fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(maxLength, 60) }),
      fc.constant("x".repeat(maxLength + 1)),
    );
  }
  if (type === "object") {
    return fc.record(
      Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausibleValue(value)]),
      ),
    );
  }
  return hostileValue;
}

/** Every row of every table, as one string: two equal snapshots mean nothing was stored or changed. */
export async function databaseSnapshot(db: Kysely<DatabaseSchema>): Promise<string> {
  const tables = await appTables(db);
  const rows: Record<string, unknown>[][] = [];
  for (const table of tables) {
    rows.push((await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows);
  }
  return snapshotText(tables, rows);
}

function snapshotText(tables: string[], rows: Record<string, unknown>[][]): string {
  return tables
    .map((table, index) => {
      const lines = (rows[index] ?? []).map((row) => JSON.stringify(row, bytesAsDigest));
      return `${table}:${lines.sort().join("\n")}`;
    })
    .join("\n\n");
}

/**
 * A photo's bytes as their length and digest, taken from the row before JSON.stringify would turn
 * them into an array of numbers (which cost more than the rest of the snapshot).
 */
function bytesAsDigest(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  return raw instanceof Uint8Array
    ? `bytes:${raw.length}:${createHash("sha1").update(raw).digest("hex")}`
    : value;
}

/**
 * A count of every row the app inserts, deletes or changes in `tables`, kept by triggers in the
 * database itself: reading it is one small query however many rows the app holds, where a snapshot
 * of every row grows with each request stored. An update that leaves a row as it was counts
 * nothing; a request that is refused in a rolled-back transaction leaves the count as it was.
 */
export async function installChangeCount(
  db: Kysely<DatabaseSchema>,
  dialect: "sqlite" | "postgres",
  tables: string[],
): Promise<void> {
  const counter = sql.raw(CHANGE_COUNT_TABLE);
  await sql`create table ${counter} (n bigint not null)`.execute(db);
  await sql`insert into ${counter} (n) values (0)`.execute(db);
  if (dialect === "postgres") {
    await sql`
      create function hostile_count_change() returns trigger language plpgsql as $$
      begin
        update ${counter} set n = n + 1;
        return null;
      end
      $$`.execute(db);
    for (const table of tables) {
      const name = sql.table(table);
      await sql`create trigger hostile_count_write after insert or delete on ${name}
        for each row execute function hostile_count_change()`.execute(db);
      await sql`create trigger hostile_count_update after update on ${name}
        for each row when (old.* is distinct from new.*) execute function hostile_count_change()`.execute(db);
    }
    return;
  }
  for (const table of tables) {
    const columns = (
      await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)
    ).rows.map(({ name }) => `old."${name}" is not new."${name}"`);
    const bump = `begin update ${CHANGE_COUNT_TABLE} set n = n + 1; end`;
    for (const [event, when] of [
      ["insert", ""],
      ["delete", ""],
      ["update", `when ${columns.join(" or ")}`],
    ]) {
      await sql
        .raw(`create trigger "hostile_count_${table}_${event}" after ${event} on "${table}" ${when} ${bump}`)
        .execute(db);
    }
  }
}

/** The table installChangeCount keeps its count in (read it with `select n from ...`). */
export const CHANGE_COUNT_TABLE = "hostile_change_count";

const tableNames = new WeakMap<Kysely<DatabaseSchema>, string[]>();
/** The app's tables, each database's own. */
export async function appTables(db: Kysely<DatabaseSchema>): Promise<string[]> {
  let names = tableNames.get(db);
  if (!names) {
    names = (await db.introspection.getTables()).map((table) => table.name).sort();
    tableNames.set(db, names);
  }
  return names;
}
