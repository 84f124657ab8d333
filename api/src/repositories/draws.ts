import { newDrawSeed, seedCommitment } from "@charity-steps/prize-draw";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** A month's draw as the public may see it before the draw: never the seed. */
export interface DrawCommitment {
  month: string;
  commitment: string;
  status: string;
}

/** The months' prize draws: each month's secret seed and the commitment published for it. */
export class DrawsRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /**
   * The commitment of `month`'s draw, making the month's seed on first ask. Two processes asking at
   * once each make a seed, but only the first insert lands and both then read that one row back:
   * a month only ever has one seed, so the commitment never changes once published.
   */
  async commitmentFor(month: string, now = Date.now()): Promise<DrawCommitment> {
    const existing = await this.read(month);
    if (existing) return existing;
    const seed = newDrawSeed();
    await this.db
      .insertInto("draws")
      .values({ month, seed, commitment: seedCommitment(seed), status: "open", created_at: now })
      .onConflict((conflict) => conflict.column("month").doNothing())
      .execute();
    const created = await this.read(month);
    if (!created) throw new Error(`The draw for ${month} was not stored`);
    return created;
  }

  private read(month: string): Promise<DrawCommitment | undefined> {
    return this.db
      .selectFrom("draws")
      .select(["month", "commitment", "status"])
      .where("month", "=", month)
      .executeTakeFirst();
  }
}
