import { describe, expect, it } from "vitest";
import { ChallengeStandings, withOwnRow } from "../../src/challenges/standings.js";
import { READINGS_SHARED_MS } from "../../src/db/shared-readings.js";
import type { ChallengeRow, MemberProgress } from "../../src/repositories/challenges.js";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const challenge: ChallengeRow = {
  id: "0b3c1a53-6a52-4d4a-9c1e-000000000001",
  name: "Shared",
  description: "",
  charity_name: null,
  kind: "total_steps",
  target: 100_000,
  daily_target: null,
  starts_on: "2026-11-21",
  ends_on: "2026-11-30",
  scope: "public",
  group_id: null,
  created_by: null,
  created_at: NOW,
  updated_at: NOW,
};

/** A member's progress as the repository answers it, named by their id. */
const member = (userId: string, steps: number): MemberProgress => ({
  userId,
  firstName: userId,
  lastName: null,
  steps,
  daysOnTarget: 0,
  fundraisingUrl: null,
});

/** Members' days as the database would answer, each reading held until the test lets it finish. */
function standingsOver(steps: Map<string, number>) {
  const readings: { finish: () => void }[] = [];
  const count = { reads: 0 };
  const standings = new ChallengeStandings({
    challenges: {
      progress: async () => {
        count.reads++;
        // What the database holds when the reading begins.
        const rows = [...steps].map(([userId, count]) => member(userId, count));
        await new Promise<void>((finish) => readings.push({ finish }));
        return rows;
      },
    },
    eligibleSteps: { pendingByWalker: async () => new Map() },
  });
  const finishAll = async () => {
    while (readings.length > 0) {
      readings.shift()?.finish();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return { standings, readings, finishAll, count };
}

describe("a challenge's shared standings", () => {
  it("are read once for the readers of a few seconds, and again after", async () => {
    const steps = new Map([["ada", 1_000]]);
    const { standings, readings, finishAll } = standingsOver(steps);
    const first = [standings.get(challenge, NOW), standings.get(challenge, NOW + 10)];
    expect(readings).toHaveLength(1);
    await finishAll();
    expect((await Promise.all(first)).map((each) => each.steps)).toEqual([1_000, 1_000]);
    steps.set("ada", 2_000);
    expect((await standings.get(challenge, NOW + READINGS_SHARED_MS - 1)).steps).toBe(1_000);
    const later = standings.get(challenge, NOW + READINGS_SHARED_MS);
    await finishAll();
    expect((await later).steps).toBe(2_000);
  });

  it("answers a fresh reading only from one begun after it was asked, one such reading for all who wait", async () => {
    const steps = new Map([["ada", 1_000]]);
    const { standings, finishAll, count } = standingsOver(steps);
    const running = standings.get(challenge, NOW);
    // Steps arrive while that reading is under way: it may have missed them.
    steps.set("ben", 500);
    const fresh = [
      standings.fresh(challenge, NOW),
      standings.fresh(challenge, NOW),
      standings.fresh(challenge, NOW),
    ];
    await finishAll();
    expect((await running).steps).toBe(1_000);
    expect((await Promise.all(fresh)).map((each) => each.steps)).toEqual([1_500, 1_500, 1_500]);
    expect(count.reads).toBe(2);
  });

  it("does not keep a reading begun before the members changed", async () => {
    const steps = new Map([["ada", 1_000]]);
    const { standings, finishAll } = standingsOver(steps);
    const before = standings.get(challenge, NOW);
    steps.set("ben", 500);
    standings.forget(challenge.id);
    await finishAll();
    expect((await before).ranked.map((row) => row.userId)).toEqual(["ada"]);
    const after = standings.get(challenge, NOW + 1);
    await finishAll();
    expect((await after).ranked.map((row) => row.userId)).toEqual(["ada", "ben"]);
  });

  it("places a walker's own row as it is now among the shared ones, the ranks after it following", async () => {
    const steps = new Map([
      ["ada", 5_000],
      ["ben", 3_000],
      ["cy", 3_000],
      ["dee", 1_000],
    ]);
    const { standings, finishAll } = standingsOver(steps);
    const reading = standings.get(challenge, NOW);
    await finishAll();
    const shared = await reading;
    const places = (result: typeof shared) =>
      result.ranked.map((row) => `${row.rank} ${row.userId} ${row.value}`);
    expect(places(shared)).toEqual(["1 ada 5000", "2 ben 3000", "2 cy 3000", "4 dee 1000"]);
    expect(places(withOwnRow(challenge, shared, member("dee", 3_000), 0))).toEqual([
      "1 ada 5000",
      "2 ben 3000",
      "2 cy 3000",
      "2 dee 3000",
    ]);
    const ahead = withOwnRow(challenge, shared, member("dee", 9_000), 2_000);
    expect(places(ahead)).toEqual(["1 dee 9000", "2 ada 5000", "3 ben 3000", "3 cy 3000"]);
    expect(ahead.ranked[0]?.pendingSteps).toBe(2_000);
    expect(ahead.steps).toBe(5_000 + 3_000 + 3_000 + 9_000);
    // The shared standings themselves are as they were.
    expect(places(shared)).toEqual(["1 ada 5000", "2 ben 3000", "2 cy 3000", "4 dee 1000"]);
  });
});
