import { CompiledQuery, type Kysely, type RawBuilder } from "kysely";
import pg from "pg";
import type { DialectName } from "../../src/db/database.js";
import type { DatabaseSchema } from "../../src/db/schema/index.js";

/**
 * Runs one query on a connection of its own with auto_explain on, so that PostgreSQL tells the
 * client the plan of every statement it runs, those inside functions included: the query's rows,
 * and each plan's text.
 */
export async function queryWithPlans(
  url: string,
  text: string,
  values: unknown[],
): Promise<{ rows: Record<string, unknown>[]; plans: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const plans: string[] = [];
  client.on("notice", (notice) => plans.push(notice.message ?? ""));
  try {
    await client.query("load 'auto_explain'");
    await client.query(
      "set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set client_min_messages = log",
    );
    const { rows } = await client.query(text, values);
    return { rows, plans };
  } finally {
    await client.end();
  }
}

/**
 * The plan a connection keeps for `query`, which it runs as the app runs it: SQLite's query plan, or
 * on PostgreSQL the prepared statement's plan after its sixth run (PostgreSQL plans a kept statement
 * generically after its fifth), the one it would use from then on.
 */
export async function keptPlan(
  db: Kysely<DatabaseSchema>,
  dialect: DialectName,
  query: RawBuilder<unknown>,
): Promise<string> {
  const { sql: text, parameters } = query.compile(db);
  return db.connection().execute(async (connection) => {
    if (dialect === "sqlite") {
      const { rows } = await connection.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
      );
      return rows.map((row) => row.detail).join("\n");
    }
    const literals = parameters
      .map((value) =>
        typeof value === "number" ? String(value) : `'${String(value).replaceAll("'", "''")}'`,
      )
      .join(", ");
    const run = `kept_plan(${literals})`;
    await connection.executeQuery(CompiledQuery.raw(`prepare kept_plan as ${text}`));
    try {
      for (let time = 0; time < 6; time++) await connection.executeQuery(CompiledQuery.raw(`execute ${run}`));
      const { rows } = await connection.executeQuery<{ "QUERY PLAN": string }>(
        CompiledQuery.raw(`explain execute ${run}`),
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await connection.executeQuery(CompiledQuery.raw("deallocate kept_plan"));
    }
  });
}
