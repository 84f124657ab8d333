import type { Database, DialectName } from "../db/database.js";

/** Whether the database answers, for the health check that load balancers and operators ask. */
export class HealthRepository {
  constructor(private readonly database: Database) {}

  /** Asks the database a trivial question; resolves to which database answered, or throws. */
  async check(): Promise<DialectName> {
    await this.database.ping();
    return this.database.dialect;
  }
}
