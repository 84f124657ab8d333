import { createHash } from "node:crypto";
import {
  DEFAULT_DRAW_TIERS,
  DRAW_MESSAGES,
  DRAW_RULES_PATH,
  DRAWS_PATH,
  DrawResults,
  drawClosesAt,
  drawPostalClosesAt,
  drawResultsPath,
} from "@charity-steps/shared-types";
import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DrawsRepository } from "../../src/repositories/draws.js";
import { drawMonthAllowed } from "../../src/routes/api/draws/index.js";
import { buildTestApp, dialects, type TestApp } from "../helper.js";
import { TEST_MONTH, useTestClock } from "../support/clock.js";

const monthsFrom = (month: string, offset: number) => {
  const [year, monthNumber] = month.split("-").map(Number) as [number, number];
  const index = year * 12 + monthNumber - 1 + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
};
useTestClock();
const thisMonth = TEST_MONTH;

describe("a draw's closing times, in London time across the clock changes", () => {
  it.each([
    // Before the clocks go forward (29 March 2026): GMT on the 25th, BST by 3 April.
    ["2026-03", "2026-04-03T11:00:00.000Z", "2026-03-25T23:59:59.000Z"],
    // 25 March 2029 is the day the clocks go forward: 23:59:59 that evening is BST.
    ["2029-03", "2029-04-03T11:00:00.000Z", "2029-03-25T22:59:59.000Z"],
    // 25 October 2026 is the day the clocks go back: 23:59:59 that evening is GMT.
    ["2026-10", "2026-11-03T12:00:00.000Z", "2026-10-25T23:59:59.000Z"],
    ["2026-09", "2026-10-03T11:00:00.000Z", "2026-09-25T22:59:59.000Z"],
    ["2026-12", "2027-01-03T12:00:00.000Z", "2026-12-25T23:59:59.000Z"],
  ])("%s closes at %s, postal entries by %s", (month, closes, postal) => {
    expect(drawClosesAt(month).toISOString()).toBe(closes);
    expect(drawPostalClosesAt(month).toISOString()).toBe(postal);
  });
});

describe("drawMonthAllowed", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  it.each([
    ["2026-03", true],
    ["2026-04", true],
    ["2026-05", false],
    ["2025-03", true],
    ["2025-02", false],
    ["2027-03", false],
  ])("%s: %s", (month, allowed) => {
    expect(drawMonthAllowed(month, now)).toBe(allowed);
  });

  it("follows London's month, not UTC's: 23:30 UTC on 31 July is already August in London", () => {
    const lateJuly = Date.parse("2026-07-31T23:30:00Z");
    expect(drawMonthAllowed("2026-09", lateJuly)).toBe(true);
    expect(drawMonthAllowed("2025-07", lateJuly)).toBe(false);
  });
});

describe.each(dialects)("draws (%s)", (dialect) => {
  let testApp: TestApp;
  const address = "Charity Steps Prize Draw\nPO Box 123\nLondon\nAB1 2CD";

  beforeAll(async () => {
    testApp = await buildTestApp(dialect, { POSTAL_ENTRY_ADDRESS: address });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const storedSeeds = () => testApp.app.database.db.selectFrom("draws").select(["month", "seed"]).execute();

  it("gives two processes asking at once one seed: every answer carries the same commitment", async () => {
    const month = monthsFrom(thisMonth, 1);
    // Separate repositories, as separate processes would have, all racing to create the row.
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        new DrawsRepository(
          testApp.app.database,
          testApp.app.repositories.auditLog,
          testApp.app.repositories.eligibleSteps,
        ).commitmentFor(month),
      ),
    );
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => testApp.app.inject({ method: "GET", url: drawResultsPath(month) })),
    );
    const commitments = new Set([
      ...answers.map((answer) => answer.commitment),
      ...responses.map((response) => response.json().commitment),
    ]);
    expect(commitments.size).toBe(1);
    expect((await storedSeeds()).filter((row) => row.month === month)).toHaveLength(1);
  });

  it("answers an open month's public record: the commitment is SHA-256 of the stored seed, which is never served", async () => {
    const response = await testApp.app.inject({ method: "GET", url: drawResultsPath(thisMonth) });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
    const body = response.json();
    expect(Value.Check(DrawResults, body)).toBe(true);
    const [row] = (await storedSeeds()).filter((stored) => stored.month === thisMonth);
    expect(row?.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(body).toEqual({
      month: thisMonth,
      status: "open",
      commitment: createHash("sha256")
        .update(Buffer.from(row?.seed ?? "", "hex"))
        .digest("hex"),
      closesAt: drawClosesAt(thisMonth).toISOString(),
      postalClosesAt: drawPostalClosesAt(thisMonth).toISOString(),
      tiers: DEFAULT_DRAW_TIERS,
    });
    expect(response.body).not.toContain(row?.seed);
    // Asked again, the same commitment: the seed is made once.
    const again = await testApp.app.inject({ method: "GET", url: drawResultsPath(thisMonth) });
    expect(again.json().commitment).toBe(body.commitment);
  });

  it("answers this month, the 12 before it and the next one; refuses others without storing anything", async () => {
    for (const offset of [0, 1]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: drawResultsPath(monthsFrom(thisMonth, offset)),
      });
      expect(response.statusCode, `offset ${offset}`).toBe(200);
    }
    // A month past its close that never had a draw gets none: a commitment made after the close
    // would prove nothing. One that had a draw is answered up to 12 months back.
    const old = monthsFrom(thisMonth, -12);
    const never = await testApp.app.inject({ method: "GET", url: drawResultsPath(old) });
    expect(never.statusCode).toBe(404);
    expect(never.json().message).toBe(DRAW_MESSAGES.neverOpened);
    expect((await storedSeeds()).some((row) => row.month === old)).toBe(false);
    await testApp.app.services.draws.draw(old, Date.parse(`${old}-10T12:00:00Z`));
    expect((await testApp.app.inject({ method: "GET", url: drawResultsPath(old) })).json()).toMatchObject({
      month: old,
      status: "closed",
    });
    const list = await testApp.app.inject({ method: "GET", url: DRAWS_PATH });
    expect(list.json().draws).toEqual(
      expect.arrayContaining([
        { month: old, status: "closed" },
        { month: thisMonth, status: "open" },
      ]),
    );
    const months = list.json().draws.map((draw: { month: string }) => draw.month);
    expect(months).toEqual([...months].sort().reverse());
    const before = (await storedSeeds()).length;
    for (const offset of [-13, 2, 120]) {
      const response = await testApp.app.inject({
        method: "GET",
        url: drawResultsPath(monthsFrom(thisMonth, offset)),
      });
      expect(response.statusCode, `offset ${offset}`).toBe(404);
      expect(response.json().message).toBe(DRAW_MESSAGES.monthOutOfRange);
    }
    for (const bad of ["2026-13", "2026-00", "26-03", "2026-3", "2026-03-01", "latest", "%27%3B--"]) {
      const response = await testApp.app.inject({ method: "GET", url: drawResultsPath(bad) });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toBe(DRAW_MESSAGES.badMonth);
    }
    expect((await storedSeeds()).length).toBe(before);
    expect(before).toBeLessThanOrEqual(14);
  });

  it("never serves a seed, from any month's answer", async () => {
    const seeds = (await storedSeeds()).map((row) => row.seed);
    expect(seeds.length).toBeGreaterThan(0);
    for (const row of await storedSeeds()) {
      const response = await testApp.app.inject({ method: "GET", url: drawResultsPath(row.month) });
      for (const seed of seeds) expect(response.body).not.toContain(seed);
      expect(response.json()).not.toHaveProperty("seed");
    }
  });

  it("tells anyone, signed in or not, where postal entries go", async () => {
    const response = await testApp.app.inject({ method: "GET", url: DRAW_RULES_PATH });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ postalEntryAddress: address });
  });
});
