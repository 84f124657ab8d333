import { END_OTHER_SESSIONS_PATH } from "@charity-steps/shared-types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dialects, TestBrowser } from "../../helper.js";
import {
  type AccountServer,
  clearThrottles,
  NEW_PASSWORD_BY,
  postJson,
  startAccountServer,
  walkerWithAccount,
  whoIs,
} from "../../support/account-mail.js";

/** Where a sign-in with the password can be paused: before the provider resumes it, or before the app redeems its code. */
const PAUSES = {
  "before the provider resumes it": (next: URL) => next.pathname.startsWith("/oidc/auth/"),
  "before the app redeems its code": (next: URL) => next.pathname === "/api/callback",
} as const;

describe.each(dialects)("a sign-in paused half-way, after the password was accepted (%s)", (dialect) => {
  let env: AccountServer;
  let origin: string;
  beforeAll(async () => {
    env = await startAccountServer(dialect);
    origin = env.server.origin;
  });
  afterAll(async () => env.close());
  beforeEach(async () => clearThrottles(env.server));

  /**
   * An attacker who knows the password posts the sign-in form and stops before `pause`: the URL
   * they keep, which would finish the sign-in later.
   */
  async function pausedSignIn(
    attacker: TestBrowser,
    email: string,
    password: string,
    pause: (next: URL) => boolean,
  ) {
    const page = await attacker.visit(`${origin}/api/login`);
    const posted = await attacker.submit(page, "/login", { email, password }, pause);
    const saved = posted.trail.at(-1) ?? "";
    expect(pause(new URL(saved))).toBe(true);
    return saved;
  }

  const ownerActions = {
    ...NEW_PASSWORD_BY,
    'signs out "everywhere else"': async (_env: AccountServer, owner: TestBrowser) => {
      const ended = await postJson(owner, origin, END_OTHER_SESSIONS_PATH);
      expect(ended.response.status).toBe(200);
    },
  } as const;

  it.each(Object.keys(PAUSES) as (keyof typeof PAUSES)[])(
    "finishes the sign-in when resumed %s and nothing has changed (the attack below is real)",
    async (pause) => {
      const { walker } = await walkerWithAccount(env);
      const attacker = new TestBrowser();
      const saved = await pausedSignIn(attacker, walker.email, walker.password, PAUSES[pause]);
      const resumed = await attacker.visit(saved);
      expect(resumed.trail.at(-1)).toBe(`${origin}/`);
      expect((await whoIs(attacker, origin)).user?.email).toBe(walker.email);
    },
  );

  describe.each(Object.keys(PAUSES) as (keyof typeof PAUSES)[])("paused %s", (pause) => {
    it.each(Object.keys(ownerActions) as (keyof typeof ownerActions)[])(
      "signs nobody in once the owner %s",
      async (action) => {
        const { walker, owner } = await walkerWithAccount(env);
        const attacker = new TestBrowser();
        const saved = await pausedSignIn(attacker, walker.email, walker.password, PAUSES[pause]);

        await ownerActions[action](env, owner, walker);

        const resumed = await attacker.visit(saved);
        expect(resumed.trail.at(-1)).not.toBe(`${origin}/`);
        expect((await whoIs(attacker, origin)).status).toBe(401);
        // Nothing the provider kept for the attacker's browser names the account any more.
        const accountId =
          (await env.server.app.repositories.localAccounts.findByEmail(walker.email))?.id ?? "";
        const interactions = await env.server.app.database.db
          .selectFrom("oidc_payloads")
          .select("payload")
          .where("model", "=", "Interaction")
          .execute();
        expect(interactions.filter((row) => row.payload.includes(`"accountId":"${accountId}"`))).toEqual([]);
      },
    );
  });
});
