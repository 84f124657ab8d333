import fastifyCookie from "@fastify/cookie";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from "fastify";
import type { ClientMetadata } from "oidc-provider";
import { OidcClient } from "./auth/oidc-client.js";
import { operatorsPlugin } from "./auth/operators.js";
import { identityProviderPlugin } from "./auth/provider/plugin.js";
import { builtInIssuer } from "./auth/provider/provider.js";
import { deriveSecret, loadMasterSecret } from "./auth/secrets.js";
import { sessionsPlugin } from "./auth/sessions.js";
import { type AppConfig, isHttps } from "./config.js";
import type { SpeedOptions } from "./db/database.js";
import { configPlugin } from "./plugins/config.js";
import {
  answerClientError,
  CONNECTION_LIMITS,
  type ConnectionLimits,
  capConnectionsPerClient,
} from "./plugins/connection-limits.js";
import { csrfPlugin } from "./plugins/csrf.js";
import { dataPlugin } from "./plugins/data.js";
import { errorsPlugin } from "./plugins/errors.js";
import { jsonBodyPlugin } from "./plugins/json-body.js";
import { FORM_BODY_LIMIT, requestBodiesPlugin } from "./plugins/request-bodies.js";
import { scheduledWorkPlugin } from "./plugins/scheduled-work.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { validationPlugin } from "./plugins/validation.js";
import { webAppPlugin } from "./plugins/web-app.js";
import { credentialsRoutes } from "./routes/api/account/credentials.js";
import { accountDataRoutes } from "./routes/api/account/data.js";
import { accountPreferencesRoutes } from "./routes/api/account/preferences.js";
import { accountSessionsRoutes } from "./routes/api/account/sessions.js";
import { appleHealthRoutes } from "./routes/api/apple-health/index.js";
import { authRoutes, CALLBACK_PATH } from "./routes/api/auth/index.js";
import { badgesRoutes } from "./routes/api/badges/index.js";
import { challengesRoutes, publicChallengeRoutes } from "./routes/api/challenges/index.js";
import { charityImpactRoutes } from "./routes/api/charity/impact.js";
import { charityRoutes } from "./routes/api/charity/index.js";
import { dashboardRoutes } from "./routes/api/dashboard/index.js";
import { drawsRoutes } from "./routes/api/draws/index.js";
import { emailUnsubscribeRoutes } from "./routes/api/email/unsubscribe.js";
import { groupsRoutes } from "./routes/api/groups/index.js";
import { healthRoutes } from "./routes/api/health/index.js";
import { notificationsRoutes } from "./routes/api/notifications/index.js";
import { openApiPlugin, openApiRoutes } from "./routes/api/openapi/index.js";
import { operatorRoutes } from "./routes/api/operator/index.js";
import { pushKeyRoutes, pushSubscriptionsRoutes } from "./routes/api/push/index.js";
import { resetRoutes } from "./routes/api/resets/index.js";
import { revenueRoutes } from "./routes/api/revenue/index.js";
import { stepsRoutes } from "./routes/api/steps/index.js";
import { summaryRoutes } from "./routes/api/summary/index.js";

export type { AppConfig } from "./config.js";
export { loadConfig } from "./config.js";

export interface BuildOptions {
  logger?: FastifyServerOptions["logger"];
  /** Told of every route as it is added, with its schema (the hostile-input suite walks them all). */
  onRoute?: (route: RouteOptions) => void;
  /** Speed machinery to switch off: only the benchmark does, to measure what each piece buys. */
  speed?: SpeedOptions;
  /** Timeouts and the per-client connection cap, when not the production ones (tests shorten them). */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * How often the draws' scheduled job runs (closing months, running draws, telling winners);
   * null runs it never, for tests that call it themselves and must see nothing else change.
   */
  drawTickMs?: number | null;
}

/** Builds the whole API (and the PWA it serves) for one configuration; used by the server and tests. */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = createFastify(config, options);
  const { onRoute } = options;
  if (onRoute) app.addHook("onRoute", (route) => onRoute(route as RouteOptions));

  await registerFoundation(app, config, options.speed);
  await app.register(scheduledWorkPlugin, { drawTickMs: options.drawTickMs });
  await app.register(openApiPlugin);
  await app.register(sessionsPlugin);
  await app.register(operatorsPlugin);

  const oidc = await createOidcClient(app, config);
  await app.register(healthRoutes);
  await app.register(authRoutes, { oidc });
  await app.register(stepsRoutes);
  await app.register(dashboardRoutes);
  await app.register(summaryRoutes);
  await app.register(badgesRoutes);
  await app.register(emailUnsubscribeRoutes);
  await app.register(resetRoutes);
  await app.register(charityRoutes);
  await app.register(charityImpactRoutes);
  await app.register(revenueRoutes);
  await app.register(groupsRoutes);
  await app.register(challengesRoutes);
  await app.register(publicChallengeRoutes);
  await app.register(appleHealthRoutes);
  await app.register(credentialsRoutes);
  await app.register(accountDataRoutes);
  await app.register(accountSessionsRoutes);
  await app.register(accountPreferencesRoutes);
  await app.register(notificationsRoutes);
  await app.register(pushKeyRoutes);
  await app.register(pushSubscriptionsRoutes);
  await app.register(operatorRoutes);
  await app.register(drawsRoutes);
  await app.register(openApiRoutes);
  await app.register(webAppPlugin);
  return app;
}

/**
 * Only the built-in identity provider, on its own: what an operator runs as a stand-alone issuer,
 * and what the tests point the app at as an "external" provider.
 */
export async function buildIdentityServer(
  config: AppConfig,
  clients: ClientMetadata[],
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = createFastify(config, options);
  const { onRoute } = options;
  if (onRoute) app.addHook("onRoute", (route) => onRoute(route as RouteOptions));
  await registerFoundation(app, config);
  await app.register(scheduledWorkPlugin, { drawTickMs: null });
  await app.register(identityProviderPlugin, { issuer: builtInIssuer(config.publicUrl), clients });
  await app.register(healthRoutes);
  await app.register(webAppPlugin);
  return app;
}

/**
 * The server, with every connection bounded in time and number: a client that sends its headers or
 * its body slowly, or not at all, is cut off instead of being held (and its body buffered) for ever.
 */
function createFastify(config: AppConfig, options: BuildOptions) {
  const limits = { ...CONNECTION_LIMITS, ...options.connectionLimits };
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    bodyLimit: FORM_BODY_LIMIT,
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    clientErrorHandler: answerClientError,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.decorate("connectionLimits", limits);
  capConnectionsPerClient(app, config.trustProxy, limits.connectionsPerClient);
  return app;
}

/** External plugins, then the app's own (config, validation, errors, security, data): fastify/demo's order. */
async function registerFoundation(
  app: FastifyInstance,
  config: AppConfig,
  speed?: SpeedOptions,
): Promise<void> {
  await app.register(configPlugin, { config });
  await app.register(validationPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(requestBodiesPlugin);
  await app.register(errorsPlugin);
  await app.register(fastifyCookie);
  await app.register(securityHeadersPlugin);
  await app.register(csrfPlugin);
  await app.register(dataPlugin, { speed });
}

/** The OIDC client for the configured issuer; with none configured, starts the built-in provider. */
async function createOidcClient(app: FastifyInstance, config: AppConfig): Promise<OidcClient> {
  const callbackUrl = `${config.publicUrl}${CALLBACK_PATH}`;
  const postLogoutUrl = `${config.publicUrl}/`;
  const secureCookies = isHttps(config);
  if (config.oidc.kind === "external") {
    const { issuerUrl, clientId, clientSecret } = config.oidc;
    return new OidcClient({ issuerUrl, clientId, clientSecret, callbackUrl, postLogoutUrl, secureCookies });
  }
  const issuerUrl = builtInIssuer(config.publicUrl);
  const { clientId } = config.oidc;
  const clientSecret =
    config.oidc.clientSecret ??
    deriveSecret(await loadMasterSecret(config, app.repositories.appSecrets), "built-in-oidc-client");
  await app.register(identityProviderPlugin, {
    issuer: issuerUrl,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        client_name: "Charity Steps",
        redirect_uris: [callbackUrl],
        post_logout_redirect_uris: [postLogoutUrl],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
  });
  return new OidcClient({ issuerUrl, clientId, clientSecret, callbackUrl, postLogoutUrl, secureCookies });
}
