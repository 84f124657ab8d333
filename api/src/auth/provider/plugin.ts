import type { IncomingMessage, ServerResponse } from "node:http";
import middie from "@fastify/middie";
import fp from "fastify-plugin";
import type { ClientMetadata } from "oidc-provider";
import { deriveSecret, loadMasterSecret } from "../secrets.js";
import { interactionRoutes } from "./interactions.js";
import { loadSigningKey } from "./keys.js";
import { ASSETS_PREFIX, PAGES_CSS, SIGN_OUT_JS } from "./pages.js";
import { createIdentityProvider } from "./provider.js";

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
    const { appSecrets, localAccounts, oidcPayloads } = app.repositories;
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
    await app.register(middie);
    app.use(issuer.pathname, asIssuerRequest(issuer));
    app.use(issuer.pathname, provider.callback());

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
    await app.register(interactionRoutes, { provider, links });
  },
  { name: "identity-provider", dependencies: ["config", "data"] },
);
