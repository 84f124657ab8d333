import {
  ErrorResponse,
  MAX_PUSH_SUBSCRIPTIONS,
  NoContent,
  PUSH_ENDPOINT_NOT_ALLOWED_MESSAGE,
  PUSH_KEY_PATH,
  PUSH_SUBSCRIPTION_PATH,
  PUSH_SUBSCRIPTIONS_PATH,
  PushKeyResponse,
  PushSubscriptionBody,
  PushSubscriptionCreated,
  PushSubscriptionParams,
  PushSubscriptionsResponse,
  TOO_MANY_PUSH_SUBSCRIPTIONS_MESSAGE,
} from "@charity-steps/shared-types";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { signedInUser } from "../../../auth/sessions.js";
import { BadRequestError, ConflictError, NotFoundError } from "../../../errors.js";
import { endpointOrigin, isAllowedPushEndpoint } from "../../../notifications/push-endpoints.js";

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

/** The server's VAPID public key: public, as a browser needs it before anyone is asked anything. */
export const pushKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(PUSH_KEY_PATH, { schema: { response: { 200: PushKeyResponse } } }, async () => ({
    publicKey: await app.services.push.publicKey(),
  }));
};

/** The browsers a walker gets pushes in: add one, list them (by push service only), remove one. */
export const pushSubscriptionsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook("onRequest", app.requireUser);
  const { notifications } = app.repositories;
  const { endpointOrigins } = app.config.push;

  app.post(
    PUSH_SUBSCRIPTIONS_PATH,
    {
      schema: {
        body: PushSubscriptionBody,
        response: {
          201: PushSubscriptionCreated,
          400: ErrorResponse,
          401: ErrorResponse,
          409: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = signedInUser(request);
      const { endpoint, keys, expirationTime } = request.body;
      if (!isAllowedPushEndpoint(endpoint, endpointOrigins)) {
        throw new BadRequestError(PUSH_ENDPOINT_NOT_ALLOWED_MESSAGE);
      }
      // The browser's key for encrypting to it: an uncompressed P-256 point, and a 16-byte secret.
      if (Buffer.from(keys.p256dh, "base64url").length !== 65) {
        throw new BadRequestError(
          "keys.p256dh must be the browser's P-256 public key (65 bytes, base64url).",
        );
      }
      if (Buffer.from(keys.auth, "base64url").length !== 16) {
        throw new BadRequestError("keys.auth must be the browser's 16-byte secret, base64url.");
      }
      const existing = await notifications.subscriptionByEndpoint(endpoint);
      if (existing?.user_id === user.id && existing.p256dh === keys.p256dh && existing.auth === keys.auth) {
        return reply.code(201).send({ id: existing.id });
      }
      const own = await notifications.subscriptions(user.id);
      const others = own.filter((subscription) => subscription.endpoint !== endpoint);
      if (others.length >= MAX_PUSH_SUBSCRIPTIONS)
        throw new ConflictError(TOO_MANY_PUSH_SUBSCRIPTIONS_MESSAGE);
      const stored = await notifications.addSubscription({
        user_id: user.id,
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        expiration_time: expirationTime ?? null,
        created_at: Date.now(),
      });
      return reply.code(201).send({ id: stored.id });
    },
  );

  app.get(
    PUSH_SUBSCRIPTIONS_PATH,
    { schema: { response: { 200: PushSubscriptionsResponse, 401: ErrorResponse } } },
    async (request) => {
      const rows = await notifications.subscriptions(signedInUser(request).id);
      return {
        items: rows.map((row) => ({
          id: row.id,
          endpointOrigin: endpointOrigin(row.endpoint),
          createdAt: new Date(row.created_at).toISOString(),
          lastSuccessAt: iso(row.last_success_at),
        })),
      };
    },
  );

  app.delete(
    PUSH_SUBSCRIPTION_PATH,
    {
      schema: {
        params: PushSubscriptionParams,
        response: { 204: NoContent, 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse },
      },
    },
    async (request, reply) => {
      const deleted = await notifications.deleteSubscription(signedInUser(request).id, request.params.id);
      if (!deleted) throw new NotFoundError("You have no such push subscription.");
      return reply.code(204).send(null);
    },
  );
};
