import { CHARITY_IMPACT_PATH, type CharityImpactResponse, type DayString } from "@charity-steps/shared-types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, createSignedInWalker, dialects, type TestApp } from "../../../helper.js";
import { TEST_MONTH, TEST_NOW, useTestClock } from "../../../support/clock.js";
import { shiftDate } from "../../../support/shifted-date.js";

useTestClock();

describe.each(dialects)("the charities' impact (%s)", (dialect) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp(dialect);
  });
  afterAll(async () => testApp?.close());

  const walker = async (name: string, charity: string | null, days: [DayString, number][]) => {
    const { app } = testApp;
    const made = await createSignedInWalker(app, name);
    if (charity) await app.repositories.users.setCharity(made.user.id, charity);
    for (const [day, steps] of days) {
      await app.repositories.ledger.recordCount(
        {
          userId: made.user.id,
          day,
          counterId: "device:phone",
          kind: "motion",
          source: "device_motion",
          steps,
        },
        TEST_NOW.getTime(),
      );
    }
    return made;
  };
  const impact = (query = "") => testApp.app.inject({ method: "GET", url: `${CHARITY_IMPACT_PATH}${query}` });

  it("counts each charity's walkers and steps in the month, names no one, and lists all three", async () => {
    const walkers = [
      await walker("Ann", "Cancer Research UK", [
        ["2026-11-02", 20_000],
        ["2026-11-20", 10_000],
      ]),
      await walker("Bea", "Cancer Research UK", [["2026-11-21", 12_000]]),
      await walker("Cal", "British Heart Foundation", [["2026-11-05", 5_000]]),
      // No charity: counted for none. Last month only: not this month's walker.
      await walker("Dee", null, [["2026-11-03", 9_000]]),
      await walker("Eve", "Cancer Research UK", [["2026-10-30", 40_000]]),
    ];
    const response = await impact(`?month=${TEST_MONTH}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=60");
    expect(response.json<CharityImpactResponse>()).toEqual({
      month: "2026-11",
      items: [
        { charityName: "Cancer Research UK", walkers: 2, steps: 42_000 },
        { charityName: "Crohn's & Colitis UK", walkers: 0, steps: 0 },
        { charityName: "British Heart Foundation", walkers: 1, steps: 5_000 },
      ],
    });
    for (const { user } of walkers) {
      for (const personal of [user.id, user.email ?? "", user.first_name ?? ""]) {
        expect(response.body).not.toContain(personal);
      }
    }
    // No month: London's current one. Last month had Eve alone.
    expect((await impact()).json<CharityImpactResponse>().month).toBe(TEST_MONTH);
    expect((await impact("?month=2026-10")).json<CharityImpactResponse>().items[0]).toEqual({
      charityName: "Cancer Research UK",
      walkers: 1,
      steps: 40_000,
    });
  });

  it("keeps a month's answer for a minute, then counts again", async () => {
    const before = (await impact("?month=2026-09")).json<CharityImpactResponse>();
    await walker("Fay", "Crohn's & Colitis UK", [["2026-09-10", 7_000]]);
    expect((await impact("?month=2026-09")).json()).toEqual(before);
    const restore = shiftDate(61_000);
    try {
      const later = (await impact("?month=2026-09")).json<CharityImpactResponse>();
      expect(later.items[1]).toEqual({ charityName: "Crohn's & Colitis UK", walkers: 1, steps: 7_000 });
    } finally {
      restore();
    }
  });

  it.each(["2026-13", "26-11", "november", "2026-11-01"])(
    "refuses the month %s with a 400",
    async (month) => {
      const response = await impact(`?month=${month}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe("month must be a month, YYYY-MM.");
    },
  );
});
