import {
  DEFAULT_DRAW_TIERS,
  DRAW_MESSAGES,
  DRAW_MONTH_PATTERN,
  DRAW_RULES_PATH,
  DrawMonthParams,
  DrawResults,
  DrawRulesResponse,
  drawClosesAt,
  drawPostalClosesAt,
  ErrorResponse,
  londonMonth,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { BadRequestError, NotFoundError } from "../../../errors.js";
import { DrawsRepository } from "../../../repositories/draws.js";

const MONTH = new RegExp(DRAW_MONTH_PATTERN);
/** How many months back from this London month a draw can be looked up. */
export const DRAW_MONTHS_BACK = 12;
/** How many months ahead: next month's commitment can be published before it starts. */
export const DRAW_MONTHS_AHEAD = 1;

const monthIndex = (month: string) => {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  return year * 12 + monthNumber - 1;
};

/**
 * Whether a draw for `month` may be looked up (and so, on first ask, created) at `now`. The route
 * is public, so this bound is what keeps anyone from filling the table: at most 14 months qualify.
 */
export function drawMonthAllowed(month: string, now = Date.now()): boolean {
  const offset = monthIndex(month) - monthIndex(londonMonth(now));
  return offset >= -DRAW_MONTHS_BACK && offset <= DRAW_MONTHS_AHEAD;
}

/** Public: each month's draw commitment and closing dates, and where postal entries go. */
export const drawsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const draws = new DrawsRepository(app.database.db);

  app.get(DRAW_RULES_PATH, { schema: { response: { 200: DrawRulesResponse } } }, async (_request, reply) =>
    reply.header("cache-control", "no-cache").send({ postalEntryAddress: app.config.postalEntryAddress }),
  );

  app.get(
    "/api/draws/:month",
    {
      schema: {
        params: DrawMonthParams,
        response: { 200: DrawResults, 400: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { month } = request.params;
      if (!MONTH.test(month)) throw new BadRequestError(DRAW_MESSAGES.badMonth);
      if (!drawMonthAllowed(month)) throw new NotFoundError(DRAW_MESSAGES.monthOutOfRange);
      const draw = await draws.commitmentFor(month);
      const results: DrawResults = {
        month,
        status: "open",
        commitment: draw.commitment,
        closesAt: drawClosesAt(month).toISOString(),
        postalClosesAt: drawPostalClosesAt(month).toISOString(),
        tiers: DEFAULT_DRAW_TIERS.map((tier) => ({ ...tier })),
      };
      // The commitment never changes, but the status will at the close: caches must ask again.
      return reply.header("cache-control", "no-cache").send(results);
    },
  );
};
