import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildTestApp,
  newWalker,
  type RunningServer,
  signUp,
  startTestServer,
  type TestApp,
  TestBrowser,
} from "../../helper.js";

/** The built-in provider's authorization request for the app's own client, as /api/login makes it. */
function authorizationPath(publicUrl: string): string {
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    client_id: "charity-steps-web",
    response_type: "code",
    scope: "openid profile email",
    redirect_uri: `${publicUrl}/api/callback`,
    state: randomBytes(8).toString("hex"),
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  });
  return `/oidc/auth?${query}`;
}

describe("the built-in provider's URLs come from the public URL, not from the request", () => {
  let testApp: TestApp;
  const publicUrl = "https://steps.example.org";
  beforeAll(async () => {
    testApp = await buildTestApp("sqlite", { PUBLIC_URL: publicUrl, TRUST_PROXY: "true" });
  });
  afterAll(async () => testApp.close());

  it.each([
    ["a foreign Host", { host: "evil.example" }],
    ["a foreign X-Forwarded-Host", { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }],
  ])("discovery answers with the issuer's endpoints whatever %s says", async (_case, headers) => {
    const response = await testApp.app.inject({
      method: "GET",
      url: "/oidc/.well-known/openid-configuration",
      headers,
    });
    expect(response.statusCode).toBe(200);
    const metadata = response.json();
    expect(metadata.issuer).toBe(`${publicUrl}/oidc`);
    for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"]) {
      expect(metadata[key], key).toMatch(new RegExp(`^${publicUrl}/oidc/`));
    }
    expect(response.body).not.toContain("evil.example");
  });

  it("sends the walker on to a sign-in page of this site, and its cookie is HttpOnly, Secure and SameSite=Lax", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: authorizationPath(publicUrl),
      headers: { host: "evil.example" },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(/^\/auth\/interaction\/[\w-]+$/);
    const interaction = response.cookies.find((cookie) => cookie.name === "_interaction");
    expect(interaction?.httpOnly).toBe(true);
    expect(interaction?.secure).toBe(true);
    expect(interaction?.sameSite).toMatch(/^lax$/i);
  });
});

describe("the built-in provider's session cookie over http", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer("sqlite");
  });
  afterAll(async () => server.close());

  it("is HttpOnly and SameSite=Lax, and not Secure (a browser would drop SameSite=None without Secure)", async () => {
    const browser = new TestBrowser();
    const landed = await signUp(browser, server.origin, newWalker());
    expect(landed.trail.some((url) => url.includes("/api/callback"))).toBe(true);
    const cookies = await browser.jar.getCookies(`${server.origin}/oidc`);
    const session = cookies.find((cookie) => cookie.key === "_session");
    expect(session, cookies.map((cookie) => cookie.key).join(", ")).toBeDefined();
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("lax");
    expect(session?.secure).toBe(false);
    expect(cookies.map((cookie) => cookie.key)).not.toContain("_session.legacy");
  });
});
