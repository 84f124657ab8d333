import {
  DailyResetResponse,
  ErrorResponse,
  londonDay,
  londonMonth,
  MonthlyResetResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

/**
 * The daily and monthly resets the client calls at London midnight and on the 1st. Days
 * and months are keys on the server, so nothing counted needs clearing: both calls are idempotent
 * and never delete steps or past months. The daily one tidies the walker's expired
 * transient records (idempotency records, sessions) and says how many went.
 */
export const resetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    "/api/daily-reset",
    { onRequest: app.requireUser, schema: { response: { 200: DailyResetResponse, 401: ErrorResponse } } },
    async (request) => {
      const { id } = signedInUser(request);
      const now = Date.now();
      const records = await app.repositories.manualEntries.deleteExpiredIdempotencyRecords(id, now);
      const sessions = await app.repositories.sessions.deleteExpired(now, id);
      return {
        message: `Daily reset done: ${londonDay(now)} starts at 0 steps; earlier days are kept.`,
        recordsDeleted: records + sessions,
      };
    },
  );

  app.post(
    "/api/monthly-reset",
    { onRequest: app.requireUser, schema: { response: { 200: MonthlyResetResponse, 401: ErrorResponse } } },
    async () => ({
      message: `Monthly reset done: ${londonMonth()} starts at 0 steps; past months are kept for their prize draws.`,
    }),
  );
};
