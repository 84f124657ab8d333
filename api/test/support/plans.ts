import pg from "pg";

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
