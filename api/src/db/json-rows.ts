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
