import {
  ErrorResponse,
  isCalendarDay,
  isMonday,
  NOT_A_MONDAY_MESSAGE,
  WEEK_SUMMARY_PATH,
  WeekSummaryQuery,
  WeekSummaryResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { BadRequestError } from "../../../errors.js";

/** The last Monday whose week ends within the four-digit years. */
const LAST_WEEK_START = "9999-12-20";

/** The walker's week, looked back on: the dashboard's Monday card. */
export const summaryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    WEEK_SUMMARY_PATH,
    {
      onRequest: app.requireUser,
      schema: {
        querystring: WeekSummaryQuery,
        response: { 200: WeekSummaryResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const { start } = request.query;
      if (!isCalendarDay(start) || !isMonday(start)) throw new BadRequestError(NOT_A_MONDAY_MESSAGE);
      // Days are written with four-digit years: a week that ends in the year 10000 has no end to read.
      if (start > LAST_WEEK_START) throw new BadRequestError(`start must be ${LAST_WEEK_START} or earlier.`);
      const walker = signedInUser(request);
      return app.repositories.habits.week({ id: walker.id, createdAt: walker.created_at }, start);
    },
  );
};
