import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  signUp,
  startTestServer,
  TestBrowser,
} from "../../helper.js";

/**
 * The provider's own sign-out (`/oidc/session/end`): a link on another site only gets a question,
 * as `/api/logout` does, and a browser with no session there stores nothing by asking.
 */
describe.each(dialects)("signing out at the built-in provider (%s)", (dialect) => {
  let server: RunningServer;
  let origin: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    origin = server.origin;
  });
  afterAll(async () => server.close());

  const providerRecords = async () =>
    Number(
      (
        await server.app.database.db
          .selectFrom("oidc_payloads")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const providerSessionOf = async (browser: TestBrowser) => {
    const id = await browser.cookie(origin, "_session");
    return id ? server.app.repositories.oidcPayloads.find("Session", id) : undefined;
  };

  /** A walker signed up and in, with a session at the provider. */
  async function signedIn() {
    const browser = new TestBrowser();
    await signUp(browser, origin, newWalker());
    expect(await providerSessionOf(browser)).toBeDefined();
    return browser;
  }

  it.each([
    ["a link on another site", { "sec-fetch-site": "cross-site" }],
    ["a link on a sibling origin", { "sec-fetch-site": "same-site" }],
    ["an older browser's link on another site", { referer: "https://evil.example/page" }],
  ])("%s gets a question with a button, and the walker stays signed in there", async (_label, headers) => {
    const browser = await signedIn();
    const page = await browser.visit(`${origin}/oidc/session/end`, { headers });
    expect(page.response.status).toBe(200);
    expect(page.body).toContain("<h1>Sign out of Charity Steps?</h1>");
    expect(page.body).toContain('<a href="/">Stay signed in</a>');
    // Nothing submits the form for the walker.
    expect(page.body).not.toContain("<script");
    expect(await providerSessionOf(browser)).toBeDefined();

    // The walker's own press of the button signs them out there.
    const pressed = await browser.submit(page, "/oidc/session/end/confirm");
    expect(pressed.response.status).toBe(200);
    expect(pressed.body).toContain(escaped("You're signed out"));
    expect(await providerSessionOf(browser)).toBeUndefined();
  });

  it("the app's own sign-out still goes straight through", async () => {
    const browser = await signedIn();
    const page = await browser.visit(`${origin}/api/logout`, {
      headers: { "sec-fetch-site": "same-origin" },
    });
    expect(page.trail.some((url) => url.startsWith(`${origin}/oidc/session/end`))).toBe(true);
    expect(page.body).toContain("<h1>Signing you out…</h1>");
    expect(page.body).toContain("sign-out.js");
  });

  it("stores nothing for a browser with no session there, however often it asks", async () => {
    const before = await providerRecords();
    for (let visit = 0; visit < 30; visit++) {
      const cookie: Record<string, string> = visit % 2 === 0 ? {} : { cookie: `_session=made-up-${visit}` };
      const answer = await fetch(`${origin}/oidc/session/end`, { headers: cookie, redirect: "manual" });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(escaped("You're signed out"));
    }
    // Asked with our own app's way back, it goes back there; another address is not followed.
    const back = await fetch(
      `${origin}/oidc/session/end?client_id=charity-steps-web&post_logout_redirect_uri=${encodeURIComponent(`${origin}/`)}`,
      { redirect: "manual" },
    );
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toBe(`${origin}/`);
    const elsewhere = await fetch(
      `${origin}/oidc/session/end?post_logout_redirect_uri=${encodeURIComponent("https://evil.example/")}`,
      { redirect: "manual" },
    );
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.headers.get("location")).toBeNull();
    expect(await providerRecords()).toBe(before);
  });
});
