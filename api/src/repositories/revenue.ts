import { type MonthString, type RevenueShareName, splitRevenue } from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

export class RevenueRepository {
  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  /** The month's subscription revenue split 50/30/20, in pence (all zero while the beta is free). */
  async monthSplit(month: MonthString): Promise<{ totalPence: number } & Record<RevenueShareName, number>> {
    const row = await this.db
      .selectFrom("subscription_payments")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount_pence"), eb.lit(0)).as("total"))
      .where("month", "=", month)
      .executeTakeFirstOrThrow();
    const totalPence = Number(row.total);
    return { totalPence, ...splitRevenue(totalPence) };
  }
}
