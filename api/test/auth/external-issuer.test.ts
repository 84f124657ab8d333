import { SIGN_UP_PATH } from "@charity-steps/shared-types";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import {
  createTestDatabase,
  dialects,
  freePort,
  newWalker,
  signIn,
  signOut,
  signUp,
  TestBrowser,
  testConfig,
} from "../helper.js";
import {
  type AppWithExternalIssuer,
  EXTERNAL_CLIENT,
  startAppWithExternalIssuer,
} from "../support/external-issuer.js";

/** The app pointed at an identity provider it does not run (`startAppWithExternalIssuer`). */
describe.each(dialects)("sign-in with an external OIDC issuer (%s)", (dialect) => {
  let started: AppWithExternalIssuer;
  let identityServer: FastifyInstance;
  let app: FastifyInstance;
  let issuerOrigin: string;
  let appOrigin: string;

  beforeAll(async () => {
    started = await startAppWithExternalIssuer(dialect);
    ({ identityServer, app, issuerOrigin, appOrigin } = started);
  });
  afterAll(() => started?.close());

  it("sends the walker to the issuer and back, and keys them by that issuer", async () => {
    const browser = new TestBrowser();
    const walker = newWalker({ firstName: "Nan", lastName: "Shepherd" });

    const landed = await signUp(browser, appOrigin, walker);

    expect(landed.trail.some((url) => url.startsWith(`${issuerOrigin}/auth/interaction/`))).toBe(true);
    expect(landed.trail.at(-1)).toBe(`${appOrigin}/`);
    const me = await browser.visit(`${appOrigin}/api/auth/user`);
    expect(JSON.parse(me.body)).toMatchObject({
      firstName: "Nan",
      lastName: "Shepherd",
      email: walker.email,
    });
    const user = await app.database.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(user.issuer).toBe(`${issuerOrigin}/oidc`);
    // The accounts live with the issuer; the app keeps none and serves no provider of its own.
    expect(await app.database.db.selectFrom("local_accounts").selectAll().execute()).toEqual([]);
    expect(await identityServer.database.db.selectFrom("local_accounts").select("email").execute()).toEqual([
      { email: walker.email },
    ]);
    expect((await fetch(`${appOrigin}/oidc/.well-known/openid-configuration`)).status).toBe(404);
  });

  it("sends a walker who chose Get Started to the issuer's sign-up form, which says it has one", async () => {
    const browser = new TestBrowser();
    const page = await browser.visit(`${appOrigin}${SIGN_UP_PATH}`);
    const authorize = page.trail.find((url) => url.startsWith(`${issuerOrigin}/oidc/auth`)) ?? "";
    expect(new URL(authorize).searchParams.get("prompt")).toBe("create");
    expect(page.trail.at(-1)).toMatch(new RegExp(`^${issuerOrigin}/auth/interaction/`));
    expect(page.body).toContain("<h1>Create your account</h1>");
  });

  it("signs out at the app and at the issuer, then signs the same walker in again", async () => {
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, appOrigin, walker);

    const signedOut = await signOut(browser, appOrigin);
    expect(signedOut.trail.at(-1)).toBe(`${appOrigin}/`);
    expect((await browser.visit(`${appOrigin}/api/auth/user`)).response.status).toBe(401);

    const again = await signIn(browser, appOrigin, walker.email, walker.password);
    expect(again.trail.at(-1)).toBe(`${appOrigin}/`);
    expect((await browser.visit(`${appOrigin}/api/auth/user`)).response.status).toBe(200);
    const users = await app.database.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", walker.email)
      .execute();
    expect(users).toHaveLength(1);
  });

  it("takes control characters, bidirectional overrides and invisible ends out of the names an issuer sends", async () => {
    const browser = new TestBrowser();
    const walker = newWalker();
    await signUp(browser, appOrigin, walker);
    await signOut(browser, appOrigin);
    // Another issuer may hold anything; PostgreSQL cannot hold NUL, so it gets the bell instead.
    const control = dialect === "sqlite" ? "\u0000" : "\u0007";
    await identityServer.database.db
      .updateTable("local_accounts")
      .set({ first_name: `\u202ENan${control}\u001b\u200B`, last_name: `Shep${control}herd\u2066` })
      .where("email", "=", walker.email)
      .execute();

    const again = await signIn(browser, appOrigin, walker.email, walker.password);
    expect(again.trail.at(-1)).toBe(`${appOrigin}/`);
    const me = await browser.visit(`${appOrigin}/api/auth/user`);
    expect(JSON.parse(me.body)).toMatchObject({ firstName: "Nan", lastName: "Shepherd" });
  });

  it("answers 502 with a message, not a crash, when the issuer cannot be reached", async () => {
    const db = await createTestDatabase(dialect, { migrated: true });
    const lonely = await buildApp(
      testConfig({
        DATABASE_URL: db.url,
        OIDC_ISSUER_URL: `http://127.0.0.1:${await freePort()}/oidc`,
        OIDC_CLIENT_ID: EXTERNAL_CLIENT.id,
        OIDC_CLIENT_SECRET: EXTERNAL_CLIENT.secret,
      }),
      { logger: false },
    );
    try {
      const response = await lonely.inject({ method: "GET", url: "/api/login" });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toEqual({
        message: "The sign-in service could not be reached. Please try again in a moment.",
      });
    } finally {
      await lonely.close();
      await db.drop();
    }
  });
});
