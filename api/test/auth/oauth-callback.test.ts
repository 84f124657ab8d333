import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIGN_IN_FAILED_MESSAGE } from "../../src/auth/oidc-client.js";
import { dialects, newWalker, type RunningServer, signUp, startTestServer, TestBrowser } from "../helper.js";

const isCallback = (next: URL) => next.pathname === "/api/callback";

describe.each(dialects)("the sign-in callback refuses what does not match (%s)", (dialect) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => server.close());

  /** Signs up at the provider and stops before the browser returns to the app's callback. */
  async function reachCallback() {
    const browser = new TestBrowser();
    const visit = await signUp(browser, server.origin, newWalker(), isCallback);
    const callback = new URL(visit.trail.at(-1) ?? "");
    expect(callback.pathname).toBe("/api/callback");
    expect(callback.searchParams.get("code")).toBeTruthy();
    return { browser, callback };
  }

  const sessionCount = async () =>
    (await server.app.database.db.selectFrom("sessions").select("id_hash").execute()).length;

  it("accepts the untouched callback (the control case)", async () => {
    const { browser, callback } = await reachCallback();
    const landed = await browser.visit(callback.href);
    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    expect((await browser.visit(`${server.origin}/api/auth/user`)).response.status).toBe(200);
  });

  it("refuses a state that is not the one this browser was given", async () => {
    const { browser, callback } = await reachCallback();
    const before = await sessionCount();
    callback.searchParams.set("state", "forged-state");

    const refused = await browser.visit(callback.href);

    expect(refused.response.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ message: SIGN_IN_FAILED_MESSAGE });
    expect(await sessionCount()).toBe(before);
  });

  it("refuses a code redeemed with another PKCE verifier", async () => {
    const { browser, callback } = await reachCallback();
    await browser.jar.setCookie(
      "cs_oauth_verifier=an-attackers-verifier-that-is-long-enough-1234567; Path=/api",
      server.origin,
    );

    const refused = await browser.visit(callback.href);

    expect(refused.response.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ message: SIGN_IN_FAILED_MESSAGE });
    expect((await browser.visit(`${server.origin}/api/auth/user`)).response.status).toBe(401);
  });

  it("refuses a code replayed after it was used", async () => {
    const { browser, callback } = await reachCallback();
    const state = await browser.cookie(server.origin, "cs_oauth_state");
    const verifier = await browser.cookie(server.origin, "cs_oauth_verifier");
    await browser.visit(callback.href);

    const replay = await fetch(callback.href, {
      redirect: "manual",
      headers: { cookie: `cs_oauth_state=${state}; cs_oauth_verifier=${verifier}` },
    });

    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ message: SIGN_IN_FAILED_MESSAGE });
  });

  it("refuses a callback naming another issuer (mix-up defence)", async () => {
    const { browser, callback } = await reachCallback();
    callback.searchParams.set("iss", "https://evil.example/oidc");
    const refused = await browser.visit(callback.href);
    expect(refused.response.status).toBe(400);
  });

  it("sends a walker who cancels at the provider back to the landing page, signed out", async () => {
    const browser = new TestBrowser();
    const signInPage = await browser.visit(`${server.origin}/api/login`);
    const cancel = /href="(\/auth\/interaction\/[^"]+\/abort)"/.exec(signInPage.body)?.[1] ?? "";

    const landed = await browser.visit(`${server.origin}${cancel}`);

    expect(landed.trail.some((url) => url.includes("/api/callback?error=access_denied"))).toBe(true);
    expect(landed.trail.at(-1)).toBe(`${server.origin}/`);
    expect((await browser.visit(`${server.origin}/api/auth/user`)).response.status).toBe(401);
  });

  it("starts sign-in with PKCE S256, a state and the app's own callback", async () => {
    const response = await fetch(`${server.origin}/api/login`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const authorize = new URL(response.headers.get("location") ?? "");
    expect(authorize.origin + authorize.pathname).toBe(`${server.origin}/oidc/auth`);
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${server.origin}/api/callback`);
    expect(authorize.searchParams.get("scope")).toBe("openid profile email");
  });
});
