import type { IncomingMessage, ServerResponse } from "node:http";
import middie from "@fastify/middie";
import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { ClientMetadata } from "oidc-provider";
import { isHttps } from "../../config.js";
import { BODY_TOO_LARGE_MESSAGE } from "../../plugins/errors.js";
import { FORM_BODY_LIMIT } from "../../plugins/request-bodies.js";
import type { OidcPayloadsRepository } from "../../repositories/oidc-payloads.js";
import type { SignInThrottleRepository } from "../../repositories/sign-in-throttle.js";
import { deriveSecret, loadMasterSecret } from "../secrets.js";
import { DeviceCookies } from "./device-cookies.js";
import { interactionRoutes } from "./interactions.js";
import { loadSigningKey } from "./keys.js";
import { ASSETS_PREFIX, messagePage, PAGES_CSS, SIGN_OUT_JS } from "./pages.js";
import { createIdentityProvider } from "./provider.js";
import { networkOf, SIGN_IN_THROTTLE, tooManySignInStartsMessage } from "./throttle.js";

/** A request as middie hands it on: Node's, with the address Fastify worked out (trusted proxies applied). */
type RawRequest = IncomingMessage & { ip?: string };

/**
 * oidc-provider writes its endpoints' URLs (discovery, the resume URL it redirects to) from the
 * request's host and scheme. Whatever Host or X-Forwarded-* a request carries, the provider is
 * shown the issuer's own origin, so that no request can make it point walkers elsewhere.
 */
function asIssuerRequest(issuer: URL) {
  const host = issuer.host;
  const proto = issuer.protocol.replace(":", "");
  return (request: IncomingMessage, _response: ServerResponse, next: () => void) => {
    request.headers.host = host;
    request.headers["x-forwarded-host"] = host;
    request.headers["x-forwarded-proto"] = proto;
    next();
  };
}

/**
 * The provider reads its own bodies (its forms and token requests), past Fastify's parsers: they are
 * held to the same limits here. A body declared larger than any form is refused unread (413), and a
 * request that carries a body closes its connection once answered, so that an answer given before
 * the body has all arrived (an error, say) does not leave Node reading the rest for as long as the
 * sender takes to trickle it in. The request timeout bounds the rest, as for every route.
 */
function boundedBodies(limit: number) {
  return (request: RawRequest, response: ServerResponse, next: () => void) => {
    const length = request.headers["content-length"];
    const chunked = request.headers["transfer-encoding"] !== undefined;
    if (!chunked && (length === undefined || length === "0")) return next();
    response.setHeader("connection", "close");
    if (Number(length) > limit) {
      const body = JSON.stringify({ message: BODY_TOO_LARGE_MESSAGE });
      response
        .writeHead(413, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
        })
        .end(body);
      return;
    }
    next();
  };
}

/**
 * A sign-out (`GET {issuer}/session/end`) from a browser with no session at the provider has
 * nothing to end. The provider would still keep a session for it, 30 days long, to hold the
 * sign-out form's secret: thousands of visitors' requests would grow the database for nothing. Such
 * a request is answered here instead, and stores nothing: back to one of our own apps when it names
 * one, else a page saying the walker is signed out.
 */
function signedOutAlready(payloads: OidcPayloadsRepository, clients: ClientMetadata[]) {
  const ownApps = new Set(clients.flatMap((client) => client.post_logout_redirect_uris ?? []));
  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => {
    // Mounted at the sign-out's path: only the sign-out itself, not its confirmation or success pages.
    const url = new URL(request.url ?? "/", "http://provider.invalid");
    if (request.method !== "GET" || url.pathname !== "/") return next();
    const sessionId = /(?:^|;\s*)_session=([^;]+)/.exec(request.headers.cookie ?? "")?.[1];
    const found = sessionId
      ? payloads.find("Session", decodeURIComponent(sessionId))
      : Promise.resolve(undefined);
    found.then(
      (session) => {
        if (session) return next();
        const back = url.searchParams.get("post_logout_redirect_uri");
        if (back !== null && ownApps.has(back)) {
          response.writeHead(303, { location: back, "cache-control": "no-store" }).end();
          return;
        }
        response
          .writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
          .end(
            messagePage("You're signed out", "You are not signed in to Charity Steps.", {
              href: "/",
              label: "Back to Charity Steps",
            }),
          );
      },
      (error: unknown) => next(error),
    );
  };
}

/**
 * Each sign-in begun at the provider (`{issuer}/auth`) stores a pending sign-in for an hour: they
 * are counted per network address, and past the limit the provider is not reached (429 with
 * `Retry-After`). Resuming a sign-in (`{issuer}/auth/{uid}`) is not a new one.
 */
function throttledSignInStarts(throttle: SignInThrottleRepository) {
  return (request: RawRequest, response: ServerResponse, next: (error?: unknown) => void) => {
    const url = new URL(request.url ?? "/", "http://provider.invalid");
    if (url.pathname !== "/") return next();
    const key = `sign-in-start:${networkOf(request.ip ?? "")}`;
    throttle.attempt([{ key, limit: SIGN_IN_THROTTLE.startsPerAddress }]).then(
      (wait) => {
        if (wait <= 0) return next();
        const minutes = Math.max(1, Math.ceil(wait / 60_000));
        response
          .writeHead(429, {
            "content-type": "text/html; charset=utf-8",
            "cache-control": "no-store",
            "retry-after": String(Math.max(1, Math.ceil(wait / 1000))),
          })
          .end(
            messagePage("Too many sign-ins", tooManySignInStartsMessage(minutes), {
              href: "/",
              label: "Back to Charity Steps",
            }),
          );
      },
      (error: unknown) => next(error),
    );
  };
}

export interface IdentityProviderPluginOptions {
  issuer: string;
  clients: ClientMetadata[];
}

/**
 * Serves the built-in OpenID Connect provider at the issuer's path (e.g. /oidc) and its sign-in and
 * sign-up pages under /auth/interaction/:uid. All of its state lives in the database.
 */
export const identityProviderPlugin = fp<IdentityProviderPluginOptions>(
  async (app, options) => {
    const { appSecrets, localAccounts, oidcPayloads, signInThrottle } = app.repositories;
    const master = await loadMasterSecret(app.config, appSecrets);
    const issuer = new URL(options.issuer);
    const provider = createIdentityProvider({
      issuer: options.issuer,
      clients: options.clients,
      cookieKey: deriveSecret(master, "oidc-cookies"),
      signingKey: await loadSigningKey(appSecrets),
      accounts: localAccounts,
      payloads: oidcPayloads,
      log: app.log,
    });
    // oidc-provider is a Koa app reading the raw request; middie runs it before Fastify parses bodies.
    // Middie runs for the routes of the scope it is registered in, and the scope's one route is every
    // path under the issuer, so the API's own requests (a step sync) never pass through it.
    await app.register(async (scope) => {
      await scope.register(middie);
      scope.use(issuer.pathname, boundedBodies(FORM_BODY_LIMIT));
      scope.use(issuer.pathname, asIssuerRequest(issuer));
      scope.use(`${issuer.pathname}/session/end`, signedOutAlready(oidcPayloads, options.clients));
      scope.use(`${issuer.pathname}/auth`, throttledSignInStarts(signInThrottle));
      scope.use(issuer.pathname, provider.callback());
      // Reached only when the provider answered nothing (it answers unknown paths itself).
      const notFound = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
      scope.all(issuer.pathname, notFound);
      scope.all(`${issuer.pathname}/*`, notFound);
    });

    app.get(`${ASSETS_PREFIX}/pages.css`, async (_request, reply) =>
      reply.type("text/css; charset=utf-8").header("cache-control", "public, max-age=3600").send(PAGES_CSS),
    );
    app.get(`${ASSETS_PREFIX}/sign-out.js`, async (_request, reply) =>
      reply
        .type("text/javascript; charset=utf-8")
        .header("cache-control", "public, max-age=3600")
        .send(SIGN_OUT_JS),
    );

    // The accounts' mailed links belong to this issuer: a mismatch would mail links to another one.
    const links = app.services.accountLinks;
    if (links?.issuer !== options.issuer) {
      throw new Error(`the built-in provider at ${options.issuer} has no account links of its own`);
    }
    // Encapsulated, so that form bodies are parsed on the interaction pages only.
    const devices = new DeviceCookies(deriveSecret(master, "device-cookies"), isHttps(app.config));
    await app.register(interactionRoutes, { provider, links, devices });
  },
  { name: "identity-provider", dependencies: ["config", "data"] },
);
