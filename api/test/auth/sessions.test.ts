import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_EXPIRED_MESSAGE, SESSION_TTL_MS } from "../../src/auth/sessions.js";
import { hashSessionToken } from "../../src/repositories/sessions.js";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../helper.js";

describe.each(dialects)("sessions (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp.close());

  const me = (cookie?: string) =>
    testApp.app.inject({ method: "GET", url: "/api/auth/user", headers: cookie ? { cookie } : {} });

  it("answers the signed-in walker", async () => {
    const { user, cookie } = await createSignedInWalker(testApp.app, "Rosa");
    const response = await me(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: user.id,
      firstName: "Rosa",
      lastName: "Walker",
      email: user.email,
      profileImageUrl: null,
      createdAt: new Date(user.created_at).toISOString(),
      // Made directly with an issuer the app does not run, and no email_verified claim.
      emailVerified: false,
      isOperator: false,
      accountKind: "external",
      theme: "system",
      onboardedAt: null,
    });
  });

  it("answers 401 with a message when signed out", async () => {
    const response = await me();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: "You are not signed in. Please sign in to continue." });
  });

  it("answers many walkers arriving at once each as themselves, and a closed session not at all", async () => {
    const walkers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => createSignedInWalker(testApp.app, `Crowd${index}`)),
    );
    const [closed] = walkers;
    if (!closed) throw new Error("no walkers");
    await testApp.app.repositories.sessions.close(closed.token);

    // Looked up together (one query per turn of the event loop): each answer is its own walker's.
    const answers = await Promise.all([...walkers.map(({ cookie }) => me(cookie)), me("cs_session=unknown")]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([
      401,
      ...walkers.slice(1).map(() => 200),
      401,
    ]);
    expect(answers.slice(1, -1).map((answer) => answer.json().id)).toEqual(
      walkers.slice(1).map((w) => w.user.id),
    );
  });

  it("refuses a forged or altered session cookie", async () => {
    const { token } = await createSignedInWalker(testApp.app);
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const cookie of [
      `cs_session=${altered}`,
      "cs_session=forged-value",
      `cs_session=${"x".repeat(5000)}`,
    ]) {
      const response = await me(cookie);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: SESSION_EXPIRED_MESSAGE });
    }
  });

  it("ends an expired session on the server side and clears the cookie", async () => {
    const { token, cookie } = await createSignedInWalker(testApp.app);
    await testApp.app.database.db
      .updateTable("sessions")
      .set({ expires_at: Date.now() - 1 })
      .where("id_hash", "=", hashSessionToken(token))
      .execute();

    const response = await me(cookie);

    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: SESSION_EXPIRED_MESSAGE });
    expect(response.cookies.find((c) => c.name === "cs_session")?.value).toBe("");
  });

  it("rolls the 30-day expiry forward when the walker comes back", async () => {
    const { token, cookie } = await createSignedInWalker(testApp.app);
    const hash = hashSessionToken(token);
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    await testApp.app.database.db
      .updateTable("sessions")
      .set({ renewed_at: twoHoursAgo, expires_at: Date.now() + 86_400_000 })
      .where("id_hash", "=", hash)
      .execute();

    const before = Date.now();
    const response = await me(cookie);

    expect(response.statusCode).toBe(200);
    const row = await testApp.app.database.db
      .selectFrom("sessions")
      .selectAll()
      .where("id_hash", "=", hash)
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBeGreaterThanOrEqual(before + SESSION_TTL_MS);
    const renewed = response.cookies.find((c) => c.name === "cs_session");
    expect(renewed?.value).toBe(token);
    expect(renewed?.httpOnly).toBe(true);
    expect(renewed?.sameSite).toBe("Lax");
    expect(renewed?.expires?.getTime()).toBeGreaterThan(before + SESSION_TTL_MS - 5_000);
  });

  it("removes expired sessions in housekeeping and keeps live ones", async () => {
    const live = await createSignedInWalker(testApp.app);
    const dead = await createSignedInWalker(testApp.app);
    await testApp.app.database.db
      .updateTable("sessions")
      .set({ expires_at: Date.now() - 1 })
      .where("id_hash", "=", hashSessionToken(dead.token))
      .execute();

    expect(await testApp.app.repositories.sessions.deleteExpired()).toBeGreaterThanOrEqual(1);

    expect((await me(live.cookie)).statusCode).toBe(200);
    const rows = await testApp.app.database.db.selectFrom("sessions").select("id_hash").execute();
    expect(rows.map((row) => row.id_hash)).not.toContain(hashSessionToken(dead.token));
  });
});

describe("session cookie over https", () => {
  it("is Secure and __Host- prefixed when the public URL is https", async () => {
    const testApp = await buildTestApp("sqlite", { PUBLIC_URL: "https://steps.example.org" });
    try {
      const { token } = await createSignedInWalker(testApp.app);
      await testApp.app.database.db.updateTable("sessions").set({ renewed_at: 0 }).execute();
      const response = await testApp.app.inject({
        method: "GET",
        url: "/api/auth/user",
        headers: { cookie: `__Host-cs_session=${token}` },
      });
      expect(response.statusCode).toBe(200);
      const cookie = response.cookies.find((c) => c.name === "__Host-cs_session");
      expect(cookie?.secure).toBe(true);
      expect(cookie?.path).toBe("/");
      expect(response.headers["strict-transport-security"]).toContain("max-age=");
    } finally {
      await testApp.close();
    }
  });
});
