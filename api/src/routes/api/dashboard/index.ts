import {
  DashboardStatsResponse,
  ErrorResponse,
  londonDay,
  MONTHLY_STEP_GOAL,
  monthOfDay,
  prizeEntries,
  stepsToNextEntry,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

/** `GET /api/dashboard/stats`: everything the dashboard's tiles show, in one answer. */
export const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    "/api/dashboard/stats",
    {
      onRequest: app.requireUser,
      schema: { response: { 200: DashboardStatsResponse, 401: ErrorResponse } },
    },
    async (request) => {
      const user = signedInUser(request);
      const date = londonDay();
      const month = monthOfDay(date);
      const todaySteps = await app.repositories.ledger.dayTotal(user.id, date);
      const {
        countedSteps: monthlySteps,
        eligibleSteps,
        pendingSteps,
      } = await app.repositories.eligibleSteps.month(month, user.id);
      const revenue = await app.repositories.revenue.monthSplit(month);
      const lastImportAt = await app.repositories.stepImportKeys.lastImportAt(user.id);
      const { dailyGoal, todayOnGoal, streak } = await app.repositories.habits.standing(user.id, date);
      return {
        date,
        month,
        todaySteps,
        monthlySteps,
        dailyGoal,
        todayOnGoal,
        streak,
        monthlyGoal: MONTHLY_STEP_GOAL,
        monthlyStepsRemaining: Math.max(0, MONTHLY_STEP_GOAL - monthlySteps),
        eligibleMonthSteps: eligibleSteps,
        pendingMonthSteps: pendingSteps,
        prizeEntries: prizeEntries(eligibleSteps),
        stepsToNextEntry: stepsToNextEntry(eligibleSteps),
        charityName: user.charity_name,
        prizePool: revenue.prizes / 100,
        appleHealthLastImportAt: lastImportAt === null ? null : new Date(lastImportAt).toISOString(),
      };
    },
  );
};
