import {
  CHARITY_IMPACT_CACHE_SECONDS,
  CHARITY_NAMES,
  type CharityImpactResponse,
} from "@charity-steps/shared-types";
import type { Kysely } from "kysely";
import type { DatabaseSchema } from "../db/schema/index.js";

/** Months whose answers are kept at once: a visitor asking for every month replaces them, no more. */
const MONTHS_KEPT = 24;

/**
 * What walkers did for each charity in a month: the walkers supporting it now who counted steps
 * then, and their counted steps (pending ones included, as leaderboards count). Counts only, never
 * a name. Public and the same for everyone, so each month's answer is kept for a minute: a crowd
 * (or a hostile visitor) asking again and again costs one read a minute.
 */
export class CharityImpactRepository {
  private readonly kept = new Map<string, { at: number; answer: CharityImpactResponse }>();

  constructor(private readonly db: Kysely<DatabaseSchema>) {}

  async month(month: string, now = Date.now()): Promise<CharityImpactResponse> {
    const kept = this.kept.get(month);
    if (kept && now - kept.at < CHARITY_IMPACT_CACHE_SECONDS * 1000) return kept.answer;
    const rows = await this.db
      .selectFrom("step_months as m")
      .innerJoin("users as u", "u.id", "m.user_id")
      .select((eb) => [
        "u.charity_name as charityName",
        eb.fn.countAll<number>().as("walkers"),
        eb.fn.sum<number>("m.total_steps").as("steps"),
      ])
      .where("m.month", "=", month)
      .where("m.total_steps", ">", 0)
      .where("u.charity_name", "is not", null)
      .groupBy("u.charity_name")
      .execute();
    const byName = new Map(rows.map((row) => [row.charityName, row]));
    const answer = {
      month,
      items: CHARITY_NAMES.map((charityName) => ({
        charityName,
        walkers: Number(byName.get(charityName)?.walkers ?? 0),
        steps: Number(byName.get(charityName)?.steps ?? 0),
      })),
    };
    if (!this.kept.has(month) && this.kept.size >= MONTHS_KEPT) this.kept.clear();
    this.kept.set(month, { at: now, answer });
    return answer;
  }
}
