import {
  ErrorResponse,
  FREE_TRIAL_DAYS,
  FUTURE_MONTHLY_PRICE_PENCE,
  londonMonth,
  REVENUE_SHARES,
  RevenueResponse,
  SubscriptionStatusResponse,
  splitRevenue,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";

const pounds = (pence: number) => pence / 100;

/** This month's revenue and its split, and the beta's subscription status. */
export const revenueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);

  app.get(
    "/api/revenue/current",
    { schema: { response: { 200: RevenueResponse, 401: ErrorResponse } } },
    async () => {
      const month = londonMonth();
      const split = await app.repositories.revenue.monthSplit(month);
      return {
        month,
        totalRevenue: pounds(split.totalPence),
        charityShare: pounds(split.charity),
        prizePool: pounds(split.prizes),
        operatingShare: pounds(split.operating),
      };
    },
  );

  app.get(
    "/api/subscription/status",
    { schema: { response: { 200: SubscriptionStatusResponse, 401: ErrorResponse } } },
    async () => {
      const pence = splitRevenue(FUTURE_MONTHLY_PRICE_PENCE);
      return {
        status: "beta" as const,
        free: true,
        futurePlan: {
          monthlyPricePence: FUTURE_MONTHLY_PRICE_PENCE,
          freeTrialDays: FREE_TRIAL_DAYS,
          shares: REVENUE_SHARES.map(({ share, percent }) => ({ share, percent, pence: pence[share] })),
        },
      };
    },
  );
};
