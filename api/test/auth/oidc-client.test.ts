import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OidcClient } from "../../src/auth/oidc-client.js";

/**
 * A provider that says nothing of `prompt=create` in its discovery (as many do): a walker sent to
 * sign up reaches its sign-in page, which offers sign-up itself, not a request it would refuse.
 */
describe("the OpenID Connect client, at a provider without prompt=create", () => {
  let issuer: FastifyInstance;
  let app: FastifyInstance;
  let issuerUrl: string;

  beforeAll(async () => {
    issuer = Fastify({ logger: false });
    issuer.get("/.well-known/openid-configuration", async () => ({
      issuer: issuerUrl,
      authorization_endpoint: `${issuerUrl}/authorize`,
      token_endpoint: `${issuerUrl}/token`,
      userinfo_endpoint: `${issuerUrl}/userinfo`,
      prompt_values_supported: ["none", "login"],
    }));
    issuerUrl = await issuer.listen({ host: "127.0.0.1", port: 0 });
    const client = new OidcClient({
      issuerUrl,
      clientId: "charity-steps",
      clientSecret: "a-client-secret-known-to-both-sides",
      callbackUrl: "http://127.0.0.1/api/callback",
      postLogoutUrl: "http://127.0.0.1/",
      secureCookies: false,
    });
    app = Fastify({ logger: false });
    await app.register(fastifyCookie);
    app.get("/sign-in", (request, reply) => client.authorizationUrl(request, reply));
    app.get("/sign-up", (request, reply) => client.authorizationUrl(request, reply, { signUp: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });

  it("asks for sign-in alike, with PKCE and state, and no prompt", async () => {
    for (const path of ["/sign-in", "/sign-up"]) {
      const url = new URL((await app.inject({ method: "GET", url: path })).body);
      expect(url.origin + url.pathname).toBe(`${issuerUrl}/authorize`);
      expect(url.searchParams.get("code_challenge_method")).toBe("S256");
      expect(url.searchParams.get("state")).toBeTruthy();
      expect(url.searchParams.has("prompt")).toBe(false);
    }
  });
});
