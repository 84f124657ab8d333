import { type RawBuilder, sql } from "kysely";
import type { DialectName } from "./database.js";

export type JsonColumn = "text" | "integer" | "bigint";

/**
 * The JSON array of objects in the parameter `json` as a table `r` with these columns, for a
 * statement that takes a whole set of rows as one value (PostgreSQL's json_to_recordset, SQLite's
 * jsonb_each): its SQL, and so its prepared statement, is the same however many rows it carries.
 * SQLite's `jsonb_each` hands each row's object on in its binary form, so reading a field from it
 * does not parse the object's text again, as every `->>` on `json_each`'s text would.
 */
export function jsonRows(
  dialect: DialectName,
  json: string,
  columns: Record<string, JsonColumn>,
): RawBuilder<unknown> {
  const names = Object.keys(columns);
  if (dialect === "postgres") {
    const typed = names.map((name) => `${name} ${columns[name]}`).join(", ");
    return sql`json_to_recordset(${json}::json) as r(${sql.raw(typed)})`;
  }
  const fields = names.map((name) => `value ->> '${name}' as ${name}`).join(", ");
  return sql`(select ${sql.raw(fields)} from jsonb_each(${json})) as r`;
}

/** The value to pass for `jsonRows`'s parameter: the rows as one JSON array. */
export function rowsParam(rows: readonly object[]): string {
  return JSON.stringify(rows);
}

/**
 * The rows of `table` (as `alias`) that match a row of `keys` (a `jsonRows` table `r`) on every one
 * of `columns`, and `where` if given: a FROM clause whose rows hold both. A plan PostgreSQL keeps
 * (a generic one, as for any prepared statement) counts on a hundred key rows, and while the table
 * is a few thousand rows long it would hash them and read the whole table at every call; a lateral
 * subquery that is not flattened (`offset 0`) looks each key up by the table's index instead.
 * SQLite has no LATERAL, and already reads the parameter first and looks each key up.
 */
export function rowsOfEachKey(
  dialect: DialectName,
  keys: RawBuilder<unknown>,
  table: string,
  alias: string,
  columns: readonly string[],
  where?: RawBuilder<boolean>,
): RawBuilder<unknown> {
  const matches = sql.join(
    [
      ...columns.map((column) => sql`${sql.ref(`${alias}.${column}`)} = ${sql.ref(`r.${column}`)}`),
      ...(where ? [where] : []),
    ],
    sql` and `,
  );
  const named = sql`${sql.table(table)} as ${sql.raw(alias)}`;
  if (dialect === "postgres") {
    return sql`${keys} cross join lateral (select * from ${named} where ${matches} offset 0) as ${sql.raw(alias)}`;
  }
  return sql`${keys} join ${named} on ${matches}`;
}
