import {
  ACCOUNT_PREFERENCES_PATH,
  ACCOUNT_SESSIONS_PATH,
  type AccountSession,
  type AuditLogPage,
  type AuthUser,
  BADGES_PATH,
  type BadgesResponse,
  badgesShown,
  CHALLENGES_PATH,
  CHARITY_IMPACT_PATH,
  CHARITY_NAMES,
  type ChallengesResponse,
  type CharityImpactResponse,
  type CharitySelectionResponse,
  type DailyResetResponse,
  type DashboardStatsResponse,
  DRAW_RULES_PATH,
  DRAWS_PATH,
  type DrawList,
  type DrawOutliers,
  type DrawRulesResponse,
  defaultNotificationPreferences,
  drawResultsPath,
  HEALTH_KEYS_PATH,
  MANUAL_ENTRIES_PATH,
  type ManualEntryList,
  type MonthlyResetResponse,
  MY_PRIZES_PATH,
  type MyGroup,
  type MyPrizes,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PATH,
  type NotificationsResponse,
  OPERATOR_AUDIT_LOG_PATH,
  OPERATOR_POSTAL_ENTRIES_PATH,
  OPERATOR_REVIEW_WALKERS_PATH,
  OPERATOR_REVIEWS_PATH,
  operatorDrawOutliersPath,
  operatorDrawPath,
  PACE_REVIEWS_PATH,
  type PaceReviewList,
  type PostalEntryList,
  type PreferencesResponse,
  type RevenueResponse,
  type ReviewQueue,
  type StepHistoryResponse,
  type StepImportKey,
  type StepSyncRequest,
  type StepSyncResponse,
  type WalkerReviewQueue,
  WEEK_SUMMARY_PATH,
  type WeekSummaryResponse,
} from "@charity-steps/shared-types";
import { HttpResponse, http } from "msw";
import { drawResults, openOperatorDraw } from "./draws";

/** The dashboard's numbers for a walker on 21 November 2026, with nothing walked yet unless `overrides` say so. */
export function dashboardStats(overrides: Partial<DashboardStatsResponse> = {}): DashboardStatsResponse {
  return {
    date: "2026-11-21",
    month: "2026-11",
    todaySteps: 0,
    monthlySteps: 0,
    dailyGoal: 10_000,
    todayOnGoal: false,
    streak: { current: 0, best: 0 },
    monthlyGoal: 100_000,
    monthlyStepsRemaining: 100_000,
    eligibleMonthSteps: 0,
    pendingMonthSteps: 0,
    prizeEntries: 0,
    stepsToNextEntry: 10_000,
    charityName: null,
    prizePool: 0,
    appleHealthLastImportAt: null,
    ...overrides,
  };
}

/** The badges a walker without a charity sees, each earned when `earned` says (ISO 8601), else not. */
export function badgesOf(earned: Record<string, string>): BadgesResponse {
  return {
    items: badgesShown(null, new Map(Object.keys(earned).map((id) => [id, 0]))).map((badge) => ({
      id: badge.id,
      name: badge.name,
      description: badge.description,
      earnedAt: earned[badge.id] ?? null,
    })),
  };
}

/** A month with walkers for every charity: "1,204 walkers, 38.2 million steps for Cancer Research UK …". */
export const charityImpactAnswered = http.get(CHARITY_IMPACT_PATH, () =>
  HttpResponse.json({
    month: "2026-11",
    items: [
      { charityName: "Cancer Research UK", walkers: 1_204, steps: 38_250_000 },
      { charityName: "Crohn's & Colitis UK", walkers: 3, steps: 41_000 },
      { charityName: "British Heart Foundation", walkers: 1, steps: 9_999 },
    ],
  } satisfies CharityImpactResponse),
);

/**
 * What the API answers in every test unless the test says otherwise with `server.use(...)`: nobody
 * is signed in; the London day's and month's resets, which the signed-in app asks for as it starts,
 * are done; and the lists and numbers the signed-in screens read for themselves are those of a
 * walker with nothing yet, and of an operator console with nothing to do (each month's draw open).
 * A request none of these or the test's own handlers answers fails the test, and so does every
 * write a test did not expect.
 */
export const defaultHandlers = [
  http.get("/api/auth/user", () => HttpResponse.json({ message: "Sign in first." }, { status: 401 })),
  http.post("/api/daily-reset", () =>
    HttpResponse.json({ message: "Daily reset done", recordsDeleted: 0 } satisfies DailyResetResponse),
  ),
  http.post("/api/monthly-reset", () =>
    HttpResponse.json({ message: "Monthly reset done" } satisfies MonthlyResetResponse),
  ),
  http.get("/api/dashboard/stats", () => HttpResponse.json(dashboardStats())),
  http.get("/api/steps/history", () => HttpResponse.json({ days: [] } satisfies StepHistoryResponse)),
  http.get(MANUAL_ENTRIES_PATH, () => HttpResponse.json({ entries: [] } satisfies ManualEntryList)),
  http.get(PACE_REVIEWS_PATH, () => HttpResponse.json({ reviews: [] } satisfies PaceReviewList)),
  http.get(MY_PRIZES_PATH, () => HttpResponse.json({ prizes: [] } satisfies MyPrizes)),
  http.get(DRAWS_PATH, () => HttpResponse.json({ draws: [] } satisfies DrawList)),
  http.get(DRAW_RULES_PATH, () =>
    HttpResponse.json({ postalEntryAddress: null } satisfies DrawRulesResponse),
  ),
  // After the rules, whose path this one would also take for a month.
  http.get(drawResultsPath(":month"), ({ params }) => HttpResponse.json(drawResults(String(params.month)))),
  http.get("/api/revenue/current", () =>
    HttpResponse.json({
      month: "2026-11",
      totalRevenue: 0,
      charityShare: 0,
      prizePool: 0,
      operatingShare: 0,
    } satisfies RevenueResponse),
  ),
  http.get("/api/charity/selection", () =>
    HttpResponse.json({ charityName: null } satisfies CharitySelectionResponse),
  ),
  http.get("/api/groups", () => HttpResponse.json([] satisfies MyGroup[])),
  http.get(WEEK_SUMMARY_PATH, ({ request }) => {
    const start = new URL(request.url).searchParams.get("start") ?? "";
    return HttpResponse.json({
      start,
      steps: 0,
      daysOnGoal: 0,
      bestDay: { date: start, steps: 0 },
      previousWeekSteps: 0,
    } satisfies WeekSummaryResponse);
  }),
  http.get(CHARITY_IMPACT_PATH, () =>
    HttpResponse.json({
      month: "2026-11",
      items: CHARITY_NAMES.map((charityName) => ({ charityName, walkers: 0, steps: 0 })),
    } satisfies CharityImpactResponse),
  ),
  http.get(ACCOUNT_PREFERENCES_PATH, () =>
    HttpResponse.json({
      dailyGoal: 10_000,
      theme: "system",
      onboardedAt: "2025-03-14T09:31:00.000Z",
      weeklyEmail: true,
    } satisfies PreferencesResponse),
  ),
  http.get(BADGES_PATH, () => HttpResponse.json(badgesOf({}))),
  http.get(CHALLENGES_PATH, () => HttpResponse.json({ items: [] } satisfies ChallengesResponse)),
  http.get(NOTIFICATIONS_PATH, () =>
    HttpResponse.json({ items: [], unread: 0, next: null } satisfies NotificationsResponse),
  ),
  http.get(NOTIFICATION_PREFERENCES_PATH, () => HttpResponse.json(defaultNotificationPreferences())),
  http.get(ACCOUNT_SESSIONS_PATH, () => HttpResponse.json([] satisfies AccountSession[])),
  http.get(HEALTH_KEYS_PATH, () => HttpResponse.json([] satisfies StepImportKey[])),
  http.get(OPERATOR_POSTAL_ENTRIES_PATH, ({ request }) =>
    HttpResponse.json({
      month: new URL(request.url).searchParams.get("month") ?? "",
      entries: [],
      truncated: false,
    } satisfies PostalEntryList),
  ),
  http.get(OPERATOR_REVIEWS_PATH, () =>
    HttpResponse.json({ reviews: [], truncated: false } satisfies ReviewQueue),
  ),
  http.get(OPERATOR_REVIEW_WALKERS_PATH, () =>
    HttpResponse.json({ walkers: [], page: 1, pageCount: 1 } satisfies WalkerReviewQueue),
  ),
  http.get(OPERATOR_AUDIT_LOG_PATH, () =>
    HttpResponse.json({ entries: [], nextBefore: null } satisfies AuditLogPage),
  ),
  http.get(operatorDrawPath(":month"), ({ params }) =>
    HttpResponse.json(openOperatorDraw(String(params.month))),
  ),
  http.get(operatorDrawOutliersPath(":month"), ({ params }) =>
    HttpResponse.json({
      month: String(params.month),
      walkers: 0,
      percentile99Tickets: 0,
      above: [],
    } satisfies DrawOutliers),
  ),
];

/** `GET /api/auth/user` answers `user`: they are signed in. */
export function signedInAs(user: AuthUser) {
  return http.get("/api/auth/user", () => HttpResponse.json(user));
}

/** `POST /api/steps/sync` as the server takes a count: the day's total is the count sent. */
export const stepSyncTaken = http.post("/api/steps/sync", async ({ request }) => {
  const { date, steps } = (await request.json()) as StepSyncRequest;
  return HttpResponse.json({
    ok: true,
    date,
    daySteps: steps,
    todaySteps: steps,
    monthlySteps: steps,
  } satisfies StepSyncResponse);
});

/** Every request fails as it does with no network. */
export const noNetwork = http.all("*", () => HttpResponse.error());
