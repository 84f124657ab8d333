import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PASSWORD_HASH_COST } from "../../../src/auth/passwords.js";
import { WRONG_PASSWORD_MESSAGE } from "../../../src/auth/provider/interactions.js";
import {
  dialects,
  escaped,
  newWalker,
  type RunningServer,
  signOut,
  signUp,
  startTestServer,
  TestBrowser,
  type Visit,
} from "../../helper.js";

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe.each(dialects)(
  "a refused sign-in takes as long whether the email has an account (%s)",
  (dialect) => {
    let server: RunningServer;
    beforeAll(async () => {
      // Production's scrypt cost: the tests' cheaper one would leave too little to time.
      server = await startTestServer(dialect, { PASSWORD_HASH_COST: String(DEFAULT_PASSWORD_HASH_COST) });
    });
    afterAll(async () => server.close());

    it("checks an unknown email's password against a hash too", async () => {
      const walker = newWalker();
      const browser = new TestBrowser();
      await signUp(browser, server.origin, walker);
      await signOut(browser, server.origin);
      const page = await browser.visit(`${server.origin}/api/login`);

      const timed = async (email: string): Promise<[number, Visit]> => {
        const start = performance.now();
        const answer = await browser.submit(page, "/login", { email, password: "not-the-password-9" });
        return [performance.now() - start, answer];
      };
      // Warm both paths first, then alternate, so that load on the machine falls on both alike.
      await timed(walker.email);
      await timed("nobody.at.all@example.org");
      const known: number[] = [];
      const unknown: number[] = [];
      for (let round = 0; round < 3; round++) {
        const [knownMs, knownAnswer] = await timed(walker.email);
        const [unknownMs, unknownAnswer] = await timed(`nobody.${round}@example.org`);
        for (const answer of [knownAnswer, unknownAnswer]) {
          expect(answer.response.status).toBe(401);
          expect(answer.body).toContain(escaped(WRONG_PASSWORD_MESSAGE));
        }
        known.push(knownMs);
        unknown.push(unknownMs);
      }
      // Without the dummy hash an unknown email is refused some thirty times faster.
      expect(median(unknown), `known ${known.join(", ")} / unknown ${unknown.join(", ")}`).toBeGreaterThan(
        median(known) / 2,
      );
    });
  },
);
