import {
  addDays,
  DEVICE_ID_HEADER,
  DEVICE_ID_PATTERN,
  DEVICE_ID_RULE,
  ErrorResponse,
  goalOn,
  LocalStepSyncRequest,
  londonDay,
  londonMonth,
  MANUAL_ENTRIES_LIST_MAX,
  MANUAL_ENTRIES_PATH,
  ManualEntryList,
  MonthlyStepsResponse,
  PACE_REVIEWS_PATH,
  PaceReviewList,
  REVIEW_REASON_MESSAGES,
  RealtimeStepsRequest,
  RealtimeStepsResponse,
  STEP_HISTORY_DAYS,
  STEP_HISTORY_PATH,
  StepHistoryQuery,
  StepHistoryResponse,
  type StepSyncRequest,
  StepSyncRequest as StepSyncRequestSchema,
  type StepSyncResponse,
  StepSyncResponse as StepSyncResponseSchema,
  TodayStepsResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { ForbiddenError } from "../../../errors.js";
import { acceptedStepDate, counterReading } from "./counter-reading.js";
import { manualEntryRoutes } from "./manual-entry.js";
import { photoRoutes } from "./photos.js";

export const OTHER_WALKER_MESSAGE = "These steps belong to another walker: sign in as them to sync them.";

const DeviceHeaders = Type.Object({
  [DEVICE_ID_HEADER]: Type.Optional(
    Type.String({ pattern: DEVICE_ID_PATTERN, errorMessage: DEVICE_ID_RULE }),
  ),
});

const syncResponses = {
  200: StepSyncResponseSchema,
  400: ErrorResponse,
  401: ErrorResponse,
  403: ErrorResponse,
  422: ErrorResponse,
};
const readResponses = { 401: ErrorResponse };
const NO_STEPS = { steps: 0, motionSteps: 0, healthSteps: 0, manualSteps: 0 };

/** The step calls, on the step ledger. Every one needs a signed-in walker. */
export const stepsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Before the body is read (an upload is not received for nobody), and before validation.
  app.addHook("onRequest", app.requireUser);
  const { ledger, eligibleSteps, manualEntries, reviews, habits } = app.repositories;
  const { badges } = app.services;

  const sync = async (userId: string, deviceId: string | undefined, body: StepSyncRequest) => {
    const date = acceptedStepDate(body.date);
    const { raised, ...totals } = await ledger.recordCount(
      counterReading(userId, deviceId, { ...body, date }),
    );
    // A replay or a lower count changed nothing a badge or a goal could reach.
    if (raised) badges.soon(userId, londonDay, [date]);
    return { ok: true, date, ...totals } satisfies StepSyncResponse;
  };

  app.post(
    "/api/steps/sync",
    { schema: { body: StepSyncRequestSchema, headers: DeviceHeaders, response: syncResponses } },
    async (request) => sync(signedInUser(request).id, request.headers[DEVICE_ID_HEADER], request.body),
  );

  app.post(
    "/api/steps/sync-background",
    { schema: { body: StepSyncRequestSchema, headers: DeviceHeaders, response: syncResponses } },
    async (request) => sync(signedInUser(request).id, request.headers[DEVICE_ID_HEADER], request.body),
  );

  app.post(
    "/api/steps/sync-local",
    { schema: { body: LocalStepSyncRequest, headers: DeviceHeaders, response: syncResponses } },
    async (request) => {
      const user = signedInUser(request);
      // The id in the body is never trusted, only compared with the session's.
      const { userId, ...body } = request.body;
      if (userId !== user.id) throw new ForbiddenError(OTHER_WALKER_MESSAGE);
      return sync(user.id, request.headers[DEVICE_ID_HEADER], body);
    },
  );

  app.post(
    "/api/steps/realtime",
    {
      schema: {
        body: RealtimeStepsRequest,
        headers: DeviceHeaders,
        response: { 200: RealtimeStepsResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const userId = signedInUser(request).id;
      const date = londonDay();
      const totals = await ledger.recordCount(
        counterReading(userId, request.headers[DEVICE_ID_HEADER], { ...request.body, date }),
      );
      if (totals.raised) badges.soon(userId, londonDay, [date]);
      return { todaySteps: totals.todaySteps, monthlyTotal: totals.monthlySteps };
    },
  );

  app.get(
    "/api/steps/today",
    { schema: { response: { 200: TodayStepsResponse, ...readResponses } } },
    async (request) => {
      const date = londonDay();
      return { date, steps: await ledger.dayTotal(signedInUser(request).id, date) };
    },
  );

  app.get(
    "/api/steps/monthly",
    { schema: { response: { 200: MonthlyStepsResponse, ...readResponses } } },
    async (request) => {
      const month = londonMonth();
      return { month, steps: await ledger.monthTotal(signedInUser(request).id, month) };
    },
  );

  app.get(
    STEP_HISTORY_PATH,
    {
      schema: {
        querystring: StepHistoryQuery,
        response: { 200: StepHistoryResponse, 400: ErrorResponse, ...readResponses },
      },
    },
    async (request) => {
      const count = request.query.days ?? STEP_HISTORY_DAYS;
      const today = londonDay();
      const from = addDays(today, -(count - 1));
      const userId = signedInUser(request).id;
      const [parts, goals] = await Promise.all([ledger.dayParts(userId, from, today), habits.goals(userId)]);
      const held = new Map(
        (await eligibleSteps.heldDays({ from, to: today, userId })).map((day) => [day.day, day]),
      );
      const days = Array.from({ length: count }, (_, index) => {
        const date = addDays(from, index);
        const day = held.get(date);
        const waiting =
          day && day.pendingSteps > 0
            ? {
                pendingSteps: day.pendingSteps,
                pendingReasons: day.reasons.map((code) => ({ code, message: REVIEW_REASON_MESSAGES[code] })),
              }
            : {};
        return { date, ...(parts.get(date) ?? NO_STEPS), goal: goalOn(goals, date), ...waiting };
      });
      return { days };
    },
  );

  app.get(
    MANUAL_ENTRIES_PATH,
    { schema: { response: { 200: ManualEntryList, ...readResponses } } },
    async (request) => ({ entries: await manualEntries.list(signedInUser(request).id) }),
  );

  app.get(
    PACE_REVIEWS_PATH,
    { schema: { response: { 200: PaceReviewList, ...readResponses } } },
    async (request) => ({
      reviews: await reviews.paceReviewsOf(signedInUser(request).id, MANUAL_ENTRIES_LIST_MAX),
    }),
  );

  await app.register(manualEntryRoutes);
  await app.register(photoRoutes);
};
