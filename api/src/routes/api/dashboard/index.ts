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
      const { ledger, eligibleSteps, revenue, stepImportKeys, habits } = app.repositories;
      // The tiles' reads do not depend on each other: on PostgreSQL each is a round trip, so they
      // are asked for at once rather than one after another.
      const [todaySteps, fairPlayMonth, split, lastImportAt, standing] = await Promise.all([
        ledger.dayTotal(user.id, date),
        eligibleSteps.month(month, user.id),
        revenue.monthSplit(month),
        stepImportKeys.lastImportAt(user.id),
        habits.standing(user.id, date),
      ]);
      const { countedSteps: monthlySteps, eligibleSteps: eligible, pendingSteps } = fairPlayMonth;
      const { dailyGoal, todayOnGoal, streak } = standing;
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
        eligibleMonthSteps: eligible,
        pendingMonthSteps: pendingSteps,
        prizeEntries: prizeEntries(eligible),
        stepsToNextEntry: stepsToNextEntry(eligible),
        charityName: user.charity_name,
        prizePool: split.prizes / 100,
        appleHealthLastImportAt: lastImportAt === null ? null : new Date(lastImportAt).toISOString(),
      };
    },
  );
};
