import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

export class AppSecretsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * The secret called `name`, created by `make` if no process has stored one yet. When several
   * processes start at once, the first insert wins and every process reads that one back.
   */
  async getOrCreate(name: string, make: () => string, now = Date.now()): Promise<string> {
    const existing = await this.find(name);
    if (existing !== undefined) return existing;
    await this.db
      .insertInto("app_secrets")
      .values({ name, value: make(), created_at: now })
      .onConflict((conflict) => conflict.column("name").doNothing())
      .execute();
    const stored = await this.find(name);
    if (stored === undefined) throw new Error(`Secret ${name} could not be stored`);
    return stored;
  }

  private async find(name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("app_secrets")
      .select("value")
      .where("name", "=", name)
      .executeTakeFirst();
    return row?.value;
  }
}
