import {
  ErrorResponse,
  NOTIFICATION_PREFERENCES_PATH,
  NOTIFICATIONS_PAGE_DEFAULT,
  NOTIFICATIONS_PATH,
  NOTIFICATIONS_READ_PATH,
  NotificationPreferences,
  NotificationPreferencesUpdate,
  NotificationsQuery,
  NotificationsRead,
  NotificationsReadResponse,
  NotificationsResponse,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { BadRequestError } from "../../../errors.js";
import { notificationItem } from "../../../notifications/notifier.js";

/** The bell: the walker's notifications, marking them read, and what they want told and how. */
export const notificationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { notifications } = app.repositories;
  const { notifier } = app.services;

  app.get(
    NOTIFICATIONS_PATH,
    {
      schema: {
        querystring: NotificationsQuery,
        response: { 200: NotificationsResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const { limit = NOTIFICATIONS_PAGE_DEFAULT, before } = request.query;
      const page = await notifications.page(user.id, limit, before);
      if (!page) throw new BadRequestError("before must be the next of an earlier page of notifications.");
      return {
        items: page.items.map(notificationItem),
        unread: await notifications.unreadCount(user.id),
        next: page.next,
      };
    },
  );

  app.post(
    NOTIFICATIONS_READ_PATH,
    {
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        // No body, `{}` and `{ids: []}` all mark everything read.
        body: NotificationsRead,
        response: { 200: NotificationsReadResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const user = signedInUser(request);
      const ids = request.body?.ids;
      await notifications.markRead(user.id, ids && ids.length > 0 ? ids : null);
      return { unread: await notifications.unreadCount(user.id) };
    },
  );

  app.get(
    NOTIFICATION_PREFERENCES_PATH,
    { schema: { response: { 200: NotificationPreferences, 401: ErrorResponse } } },
    async (request) => notifier.preferences(signedInUser(request).id),
  );

  app.put(
    NOTIFICATION_PREFERENCES_PATH,
    {
      schema: {
        body: NotificationPreferencesUpdate,
        response: { 200: NotificationPreferences, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (request) => notifier.changePreferences(signedInUser(request).id, request.body),
  );
};
