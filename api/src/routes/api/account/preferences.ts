import {
  ACCOUNT_PREFERENCES_PATH,
  ErrorResponse,
  londonDay,
  PreferencesResponse,
  PreferencesUpdate,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";

/** The walker's own settings: their daily goal, the app's theme, and the welcome's end. */
export const accountPreferencesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { habits } = app.repositories;
  const { badges } = app.services;

  app.get(
    ACCOUNT_PREFERENCES_PATH,
    { schema: { response: { 200: PreferencesResponse, 401: ErrorResponse } } },
    async (request) => habits.preferences(signedInUser(request).id, londonDay()),
  );

  app.put(
    ACCOUNT_PREFERENCES_PATH,
    {
      schema: {
        body: PreferencesUpdate,
        response: { 200: PreferencesResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const now = Date.now();
      const today = londonDay(now);
      await habits.update(user.id, request.body, today, now);
      // The steps already counted today may reach a lowered goal: a look tells of it, as it would
      // after a sync, rather than waiting for the walker's next steps.
      if (request.body.dailyGoal !== undefined) badges.soon(user.id, londonDay, [today]);
      return habits.preferences(user.id, today);
    },
  );
};
